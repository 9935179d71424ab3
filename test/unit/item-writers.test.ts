/**
 * Item ownership by the keys a store actually writes (functions/model/item-kinds.ts `owner`):
 * each store's write functions run against a recording SDK client (no network); every item a
 * Put, Update, Delete or batch request names is classified by its key, and the store that sent it —
 * the innermost functions/stores/ frame on the stack at `send` — must be the kind's owner. Unlike a
 * search of the source for key functions, this sees keys passed in as parameters.
 *
 * A transaction may carry another store's parts (the follow transaction takes feed-store's pulled
 * set update): there the sender must own the part or import its owner's module, whose exported
 * part builders are the only way to make one. The migration store rewrites items of every kind
 * (its writes are the migration's, services/migrations/), so it is checked by its own kinds only
 * where it writes its own items.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- SDK command inputs of every shape, read loosely to find their keys */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { itemKinds } from '../../functions/model/item-kinds.js';
import { doc, dynamo } from '../../functions/platform/clients.js';
import * as connectionStore from '../../functions/stores/connection-store.js';
import * as erasureStore from '../../functions/stores/erasure-store.js';
import * as feedStore from '../../functions/stores/feed-store.js';
import * as followStore from '../../functions/stores/follow-store.js';
import * as socialStore from '../../functions/stores/social-store.js';
import * as statsStore from '../../functions/stores/stats-store.js';
import * as tagStore from '../../functions/stores/tag-store.js';
import { tagKeyOf } from '../../functions/model/tags.js';

const CAFE = tagKeyOf('café');

const storesDir = resolve(import.meta.dirname, '..', '..', 'functions', 'stores');

/** The literal text a documented key starts with: up to its first `<placeholder>`. */
const literalStart = (template: string) => {
  const code = /`([^`]*)`/.exec(template)?.[1] ?? '';
  const at = code.indexOf('<');
  return at < 0 ? code : code.slice(0, at);
};

/** The owner of the kind a key belongs to: the kind whose partition template starts the longest match. */
function ownerOfKey(pk: string): string | undefined {
  let best: { start: string; owner: string } | undefined;
  for (const kind of itemKinds) {
    const start = literalStart(kind.pk);
    if (pk.startsWith(start) && start.length > (best?.start.length ?? -1)) best = { start, owner: kind.owner };
  }
  return best?.owner;
}

interface Write {
  readonly sender: string;
  readonly pk: string;
  readonly inTransaction: boolean;
}

const writes: Write[] = [];
// The spy's own frames come first; the store may be a dozen frames (and a few awaits) further out.
Error.stackTraceLimit = 100;

/** The innermost store on the stack: the one that sent the command. */
function senderOf(stack: string): string {
  const m = /functions\/stores\/([\w-]+)\.ts/.exec(stack);
  return m?.[1] ?? '(no store)';
}

function record(command: { constructor: { name: string }; input: Record<string, unknown> }, stack: string) {
  const sender = senderOf(stack);
  const input = command.input as Record<string, any>;
  const add = (key: Record<string, unknown> | undefined, inTransaction = false) => {
    if (key && typeof key.pk === 'string') writes.push({ sender, pk: key.pk, inTransaction });
  };
  const plain = (key: any) => (key && typeof key.pk === 'object' && 'S' in key.pk ? unmarshall(key) : key);
  switch (command.constructor.name) {
    case 'PutCommand':
      return add(input.Item);
    case 'UpdateCommand':
    case 'DeleteCommand':
      return add(input.Key);
    case 'BatchWriteCommand':
    case 'BatchWriteItemCommand':
      for (const requests of Object.values<any[]>(input.RequestItems ?? {})) {
        for (const r of requests) add(plain(r.PutRequest?.Item ?? r.DeleteRequest?.Key));
      }
      return;
    case 'TransactWriteCommand':
      for (const part of input.TransactItems ?? []) add(part.Put?.Item ?? part.Update?.Key ?? part.Delete?.Key, true);
      return;
  }
}

beforeAll(() => {
  const fake = async function (this: unknown, command: any) {
    record(command, new Error().stack ?? '');
    return { Items: [], Responses: {}, UnprocessedItems: {}, Count: 0 };
  };
  vi.spyOn(doc, 'send').mockImplementation(fake as never);
  vi.spyOn(dynamo, 'send').mockImplementation(fake as never);
});
afterAll(() => vi.restoreAllMocks());

const RK = 9_223_370_000_000_000_000n;
const state = { content: 'edited', version: 2, editedAt: '2026-11-28T10:00:00.000Z', tags: ['café'] };
const source = { pk: 't#alice', rk: RK, id: 'alice:1', actor: 'alice', verb: 'post', tags: ['café'] };

/** Each store's write functions, called as their callers call them. */
const drives: Record<string, () => Promise<unknown>> = {
  'feed-store putOriginal': () => feedStore.putOriginal({ ...source, time: '2026-11-28T10:00:00.000Z' }),
  'feed-store putOriginalWithMarker': () => feedStore.putOriginalWithMarker({ ...source, foreignId: 'post-1', time: 'x' }),
  'feed-store releaseForeignId': () => feedStore.releaseForeignId('alice', 'post-1', RK),
  'feed-store deleteOriginal': () => feedStore.deleteOriginal('alice', RK),
  'feed-store putCopies': () => feedStore.putCopies([{ source, owners: ['bob', 'carol'], expiresAt: undefined }]),
  'feed-store deleteCopies': () => feedStore.deleteCopies([{ owner: 'bob', rk: RK }]),
  'feed-store updateCopy': () => feedStore.updateCopy('bob', RK, state, 5n),
  'feed-store recordTrimTop': () => feedStore.recordTrimTop('bob', RK),
  'feed-store setHeadActiveUntil': () => feedStore.setHeadActiveUntil('bob', 5n),
  'feed-store removePulled': () => feedStore.removePulled('bob', 'alice'),
  'tag-store putTagEntries': () => tagStore.putTagEntries([{ source, tag: CAFE }]),
  'tag-store deleteTagEntries': () => tagStore.deleteTagEntries([{ tag: CAFE, rk: RK }]),
  'tag-store updateTagEntries': () => tagStore.updateTagEntries([CAFE], RK, state),
  'tag-store followTagPush': () => tagStore.followTagPush('bob', CAFE, 'Café', 5n, 100),
  'tag-store followTagPull': () => tagStore.followTagPull('bob', CAFE, 'Café', 5n),
  'tag-store stampTagFollowerEntry': () => tagStore.stampTagFollowerEntry(CAFE, 'bob', 5n),
  'tag-store countTrendUse': () => tagStore.countTrendUse('h2026-11-28T10', CAFE, 'Café', 'alice', 1),
  'tag-store putTopList': () => tagStore.putTopList('h2026-11-28T10', {}, 1, 1),
  'follow-store setPulled': () => followStore.setPulled('alice', true),
  'follow-store markPulledSince': () => followStore.markPulledSince('alice', 5n),
  'follow-store clearPending': () => followStore.clearPending('bob', 'alice', 'backfillPending', 'active'),
  'follow-store deleteEdgeItem': () => followStore.deleteEdgeItem('bob', 'alice'),
  'follow-store stampFollowerEntry': () => followStore.stampFollowerEntry('alice', '0000000000000000001', 'bob', 5n),
  'follow-store deleteListEntries': () => followStore.deleteListEntries([{ follower: 'bob', followee: 'alice', order: '0000000000000000001' }]),
  'connection-store putConnection': () => connectionStore.putConnection({ userId: 'alice', connectionId: 'c1', connectedAt: 1, expiresAt: 2 } as never),
  'connection-store deleteConnection': () => connectionStore.deleteConnection({ userId: 'alice', connectionId: 'c1' }),
  'erasure-store markErased': () => erasureStore.markErased('alice', false),
  'social-store closeCounter': () => socialStore.closeCounter('alice:1', 1),
  'social-store deleteCounter': () => socialStore.deleteCounter('alice:1'),
  'social-store deleteReactionItems': () => socialStore.deleteReactionItems('alice:1', 'bob'),
  'stats-store putStatItems': () => statsStore.putStatItems([{ pk: 'activity#alice', sk: '0#seg', count: 1 }]),
};

/** Which stores a store's module imports (its transactions may carry their parts). */
const importsOf = (store: string) => [...readFileSync(resolve(storesDir, `${store}.ts`), 'utf8').matchAll(/from '\.\/([\w-]+)\.js'/g)].map((m) => m[1]!);

describe('items are written by the store that owns them', () => {
  it.each(Object.keys(drives))('%s', async (name) => {
    writes.length = 0;
    await drives[name]!().catch(() => undefined); // a fake answer may upset what a store does after its write; the write is recorded
    expect(writes.length, `${name} wrote nothing: drive it as its callers do`).toBeGreaterThan(0);
    const strays = writes.filter((w) => {
      const owner = ownerOfKey(w.pk);
      if (owner === w.sender) return false;
      return !(w.inTransaction && owner !== undefined && importsOf(w.sender).includes(owner));
    });
    expect(strays.map((w) => `${w.sender} wrote ${w.pk} (owned by ${ownerOfKey(w.pk) ?? 'no kind'})`)).toEqual([]);
  });
});
