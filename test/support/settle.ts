/**
 * Knowing that background work is over, without guessing a delay: the job queues are empty (no
 * message visible, in flight or delayed) and a probe of the last expected effect holds. Jobs of
 * one author's posts are queued in the order of their stream records, so once the effect of the
 * author's last post is visible and every queue is empty, the earlier posts' jobs have run too —
 * a test can then assert what did NOT happen. Also: a scan for an id anywhere in the tables, and
 * the size of an item by DynamoDB's rules.
 */
import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';

/** Every job queue (dead-letter and failure queues aside) holds nothing: visible, in flight or delayed. */
export async function jobQueuesEmpty(sqs: SQSClient, queueUrls: Record<string, string>): Promise<boolean> {
  const jobQueues = Object.entries(queueUrls).filter(([id]) => !/dlq$/i.test(id) && id !== 'streamFailures');
  const depths = await Promise.all(
    jobQueues.map(async ([, url]) => {
      const { Attributes = {} } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: url,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
        }),
      );
      return (
        Number(Attributes.ApproximateNumberOfMessages ?? 0) +
        Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
        Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0)
      );
    }),
  );
  return depths.every((d) => d === 0);
}

/** Every item of the given tables whose JSON form contains `needle` (keys and values, sets and lists included). */
export async function itemsMentioning(doc: DynamoDBDocumentClient, tables: readonly string[], needle: string): Promise<{ table: string; item: string }[]> {
  const found: { table: string; item: string }[] = [];
  for (const table of tables) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
      for (const item of page.Items ?? []) {
        const text = JSON.stringify(item, (_k, v) => (v instanceof Set ? [...v] : typeof v === 'bigint' ? v.toString() : v));
        if (text.includes(needle)) found.push({ table, item: text.slice(0, 300) });
      }
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return found;
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * An item's size by DynamoDB's rules (attribute names + values; a number about 1 byte per two
 * digits + 1; a set the sum of its members), read with wrapNumbers. What the 400 KB limit counts.
 */
export function itemSizeBytes(item: Record<string, unknown>): number {
  const value = (v: unknown): number => {
    if (typeof v === 'string') return utf8(v);
    if (typeof v === 'boolean' || v === null) return 1;
    if (typeof v === 'number' || typeof v === 'bigint') return Math.ceil(String(v).replace(/^-/, '').length / 2) + 1;
    if (v instanceof Set) return [...v].reduce((s: number, m) => s + value(m), 0);
    if (Array.isArray(v)) return 3 + v.reduce((s: number, m) => s + 1 + value(m), 0);
    if (v && typeof v === 'object' && 'value' in v && typeof v.value === 'string') {
      return Math.ceil((v as { value: string }).value.replace(/^-/, '').length / 2) + 1; // a NumberValue (wrapNumbers)
    }
    if (v instanceof Uint8Array) return v.byteLength;
    if (v && typeof v === 'object') return 3 + Object.entries(v).reduce((s, [k, m]) => s + 1 + utf8(k) + value(m), 0);
    return 0;
  };
  return Object.entries(item).reduce((s, [k, v]) => s + utf8(k) + value(v), 0);
}
