/**
 * The event-source plumbing end to end: an original written to the feed table travels through the
 * stream, the outbox, SQS and the fan-out worker into a follower's home feed.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { homeFeedKey, homeFeedPartition } from '../../functions/model/feed-copy.js';
import { seedFollowers } from '../support/graph-seed.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { originalItem, writeFeedItems } from '../support/seed-originals.js';
import { eventually } from '../support/wait.js';

describe('event-source plumbing', () => {
  it('carries an original through the stream, the outbox, SQS and the worker into a follower feed', async () => {
    const author = uid('plumb-a');
    const [follower] = await seedFollowers(author, 1);
    const original = originalItem({ actor: author, verb: 'plumb', timeMs: Date.now() });
    await writeFeedItems([original]);
    const copy = await eventually(async () => {
      const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: homeFeedKey(follower!, original.rk) }));
      return Item;
    });
    expect(copy.id).toBe(original.id);
    expect(copy.pk).toBe(homeFeedPartition(follower!)); // a copy lives in the follower's home feed, not a timeline
    expect(copy.deletedAt).toBeUndefined();
  });
});
