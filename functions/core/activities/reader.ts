/**
 * Newest-first pages of a home feed or of one author's originals: exactly ONE Query per page
 * (see `commands.pageQuery` for the probe item that decides the end).
 */
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PageCursor } from '../keys.js';
import { type PageSource, pageQuery } from './commands.js';
import { viewOf } from './item.js';
import type { PageView } from './schemas.js';

export function createFeedReader(client: DynamoDBDocumentClient, feedTable: string) {
  /**
   * `lastRangeKey` continues in the direction read: after a newest/`before` page it is the last
   * (oldest) item's key, to pass as `before`; after a `since` page it is the first (newest) item's
   * key, to pass as `since` again. null when that direction is exhausted.
   */
  async function page(source: PageSource, cursor: PageCursor, limit: number): Promise<PageView> {
    const out = await client.send(new QueryCommand(pageQuery(feedTable, source, cursor, limit)));
    const fetched = (out.Items ?? []) as Record<string, unknown>[];
    // More exists if the probe item came back, or if DynamoDB stopped early at its 1 MB page cap.
    const more = fetched.length > limit || out.LastEvaluatedKey !== undefined;
    const kept = fetched.slice(0, limit);
    // `since` reads upwards from the cursor (nearest first); every page shows newest first.
    if (cursor.kind === 'since') kept.reverse();
    const items = kept.map(viewOf);
    const edge = cursor.kind === 'since' ? items[0] : items.at(-1);
    return { items, lastRangeKey: more && edge ? edge.rangeKey : null };
  }
  return { page };
}

export type FeedReader = ReturnType<typeof createFeedReader>;
