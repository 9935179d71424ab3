/**
 * Text the job queue can carry. Every job is an SQS message, and SQS refuses a body holding a
 * character outside #x9 | #xA | #xD | #x20–#xD7FF | #xE000–#xFFFD | #x10000–#x10FFFF: other C0
 * controls, U+FFFE, U+FFFF and lone surrogates. A post, id or name holding one would be
 * acknowledged and then never fanned out, so the edge refuses such text in any request
 * (functions/http/request.ts) rather than encode it into job bodies.
 */

const UNCARRIABLE = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** The first character SQS would refuse (its code point), or undefined. */
export function firstUncarriable(text: string): number | undefined {
  const m = UNCARRIABLE.exec(text);
  return m ? m[0].codePointAt(0) : undefined;
}

/** `U+0007`: how a refused character is named in an error. */
export const codePointName = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

export const CARRIABLE_RULE = 'no control characters but tab, LF and CR, no U+FFFE or U+FFFF, no lone surrogates';
