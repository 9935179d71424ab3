/**
 * Hashtags (pure). An activity's tags are the `#hashtags` of its `content` plus the optional `tags`
 * of the post, at most MAX_TAGS of them. A tag is letters, combining marks, digits and `_` of any
 * script, with at least one character that is not a digit (`#1` is "number one", not a topic); its
 * identity is its key — NFKC, then lower case, so `#Café`, `#CAFÉ` and full-width `#ｃａｆé` are one
 * tag — while the activity shows each as first written.
 *
 * A `#` counts only at the start of the text or after a character that cannot be part of a word or
 * a URL fragment's tail (`a#b`, `&#38;` and `x/#y` carry no tag).
 */

/** Tags one activity may carry (content and `tags` together, distinct by key). */
export const MAX_TAGS = 10;
/** Characters of a tag, `#` excluded. */
export const MAX_TAG_CHARS = 100;

const TAG_BODY = '[\\p{L}\\p{M}\\p{N}_]+';
const IN_TEXT = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_&/#])#(${TAG_BODY})`, 'gu');
const WHOLE = new RegExp(`^#?(${TAG_BODY})$`, 'u');
const ALL_DIGITS = /^\p{N}+$/u;

declare const normalized: unique symbol;

/**
 * A tag's identity: its written form, NFKC, then lower case — what tag items, jobs and cursors are
 * keyed by. Only tagKeyOf and isNormalTag make one, so a written form (`Café`) cannot be passed
 * where a key (`café`) is meant; the written form stays a plain string.
 */
export type TagKey = string & { readonly [normalized]: true };

/** The identity of a tag as written (without `#`): NFKC, then lower case. */
export const tagKeyOf = (written: string): TagKey => written.normalize('NFKC').toLowerCase() as TagKey;

/** Whether `text` (with or without a leading `#`) is a tag; its written form if so. */
export function parseTag(text: string): string | undefined {
  const body = WHOLE.exec(text)?.[1];
  if (body === undefined || ALL_DIGITS.test(body) || [...body].length > MAX_TAG_CHARS) return undefined;
  // A key must be a tag too (NFKC may turn a letter into punctuation, e.g. U+2474 → "(1)").
  const key = tagKeyOf(body);
  return new RegExp(`^${TAG_BODY}$`, 'u').test(key) ? body : undefined;
}

/** Whether `key` is a tag in its normal form (a key: what a stored key, a job or a cursor may hold). */
export const isNormalTag = (key: string): key is TagKey => parseTag(key) !== undefined && tagKeyOf(key) === key;

/** The tags written in `content`, in order of first appearance (all of them: the caller bounds the count). */
export function tagsInText(content: string): string[] {
  return [...content.matchAll(IN_TEXT)].flatMap((m) => {
    const tag = parseTag(m[1]!);
    return tag === undefined ? [] : [tag];
  });
}

/** An activity's tags: the content's, then the given ones, distinct by key, each as first written. */
export function tagsOf(content: string | undefined, given: readonly string[] = []): string[] {
  const seen = new Map<string, string>();
  for (const written of [...tagsInText(content ?? ''), ...given.map((g) => parseTag(g) ?? g)]) {
    const key = tagKeyOf(written);
    if (!seen.has(key)) seen.set(key, written);
  }
  return [...seen.values()];
}

/** The keys of an activity's stored tags (`tags` as stored or as a stream image gives them). */
export function tagKeysOf(stored: unknown): TagKey[] {
  const list = Array.isArray(stored) ? stored : stored instanceof Set ? [...stored] : [];
  return [...new Set(list.filter((t): t is string => typeof t === 'string').map(tagKeyOf))];
}

/** Whether an activity (as stored or read) carries the tag whose key is `key`. */
export const carriesTag = (activity: object | undefined, key: TagKey): boolean => tagKeysOf((activity as { tags?: unknown } | undefined)?.tags).includes(key);

/** What moves when an activity's tags change (an edit): keys it leaves and keys it joins. */
export function tagChanges(oldTags: readonly string[], newTags: readonly string[]): { removed: TagKey[]; added: TagKey[] } {
  const before = new Set(tagKeysOf(oldTags));
  const after = new Set(tagKeysOf(newTags));
  return { removed: [...before].filter((k) => !after.has(k)), added: [...after].filter((k) => !before.has(k)) };
}
