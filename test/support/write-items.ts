import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { doc } from './local.js';

/** BatchWrite puts into the shared stack, 25 per call, 4 in flight, unprocessed items retried. */
export const writeItems = (table: string, items: readonly Record<string, unknown>[]): Promise<void> => writeItemsWith(doc, table, items);

/** The same through another client (a test file's own stack). */
export async function writeItemsWith(doc: DynamoDBDocumentClient, table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  let next = 0;
  const lane = async () => {
    while (next < chunks.length) {
      let requests = chunks[next++]!.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; requests.length; attempt++) {
        if (attempt > 8) throw new Error('unprocessed items after 8 retries');
        const out = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
        requests = (out.UnprocessedItems?.[table] ?? []) as typeof requests;
        if (requests.length) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      }
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
}
