/**
 * What SQS accepts in a message, which `local-aws-sqs` does not check (local/sqs-server.ts applies
 * it in front of that server, so local runs and tests meet what AWS would answer):
 * - a body holds only #x9 | #xA | #xD | #x20–#xD7FF | #xE000–#xFFFD | #x10000–#x10FFFF (the XML
 *   character set: no other C0 control, no U+FFFE/U+FFFF, no lone surrogate) — else
 *   `InvalidMessageContents`;
 * - a message (body, attribute names, types and values) is at most the queue's
 *   MaximumMessageSize, 1 MiB (1,048,576 bytes) by default — counted in UTF-8 bytes, where the
 *   library counts UTF-16 code units — else `InvalidParameterValue`;
 * - a batch's messages together are at most 1 MiB — else `BatchRequestTooLong`.
 */
import { firstUncarriable } from '../functions/model/carriable-text.js';

/** SQS's largest message and batch, in bytes (1 MiB since 2025; 256 KiB before, in some regions). */
export const SQS_MAX_BYTES = 1_048_576;

export interface WireMessage {
  readonly MessageBody?: unknown;
  readonly MessageAttributes?: Record<string, { DataType?: unknown; StringValue?: unknown; BinaryValue?: unknown }>;
}

/** The size SQS counts for a message: body and attributes (names, types, values), UTF-8 bytes. */
export function messageBytes(m: WireMessage): number {
  const len = (v: unknown) => (typeof v === 'string' ? Buffer.byteLength(v) : 0);
  let total = len(m.MessageBody);
  for (const [name, a] of Object.entries(m.MessageAttributes ?? {})) total += len(name) + len(a?.DataType) + len(a?.StringValue) + len(a?.BinaryValue);
  return total;
}

export interface MessageRefusal {
  readonly code: 'InvalidMessageContents' | 'InvalidParameterValue';
  readonly message: string;
}

/** Why SQS would refuse this one message, if it would. */
export function refusalOf(m: WireMessage, maxBytes = SQS_MAX_BYTES): MessageRefusal | undefined {
  if (typeof m.MessageBody === 'string') {
    const bad = firstUncarriable(m.MessageBody);
    if (bad !== undefined) {
      return {
        code: 'InvalidMessageContents',
        message: `Invalid binary character '#x${bad.toString(16).toUpperCase()}' was found in the message body, the set of allowed characters is #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF`,
      };
    }
  }
  if (messageBytes(m) > maxBytes) {
    return { code: 'InvalidParameterValue', message: `One or more parameters are invalid. Reason: Message must be shorter than ${maxBytes} bytes.` };
  }
  return undefined;
}
