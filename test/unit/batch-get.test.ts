/**
 * platform/dynamo/batch-get.ts, against a fake document client (pure logic: chunking, de-duplication
 * and the retry of UnprocessedKeys; the real BatchGetItem is exercised by every integration test
 * that reads through it). Several tables share a call's 100 keys; what a call leaves unprocessed is
 * asked again, in any table, and nothing else is.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Key = { pk: string; sk: string };
type Request = { RequestItems: Record<string, { Keys: Key[]; ConsistentRead?: boolean }> };
const fake = vi.hoisted(() => ({
  requests: [] as Request[],
  /** Keys the next call leaves unprocessed, by table. */
  leave: [] as Record<string, Key[]>[],
  send: async (command: { input: Request }) => {
    const input = command.input;
    fake.requests.push(structuredClone(input));
    const left = fake.leave.shift() ?? {};
    const isLeft = (table: string, k: Key) => (left[table] ?? []).some((l) => l.pk === k.pk && l.sk === k.sk);
    const Responses = Object.fromEntries(
      Object.entries(input.RequestItems).map(([table, r]) => [table, r.Keys.filter((k) => !isLeft(table, k)).map((k) => ({ ...k, found: true }))]),
    );
    const UnprocessedKeys = Object.fromEntries(Object.entries(left).map(([table, Keys]) => [table, { Keys }]));
    return { Responses, UnprocessedKeys };
  },
}));
vi.mock('../../functions/platform/clients.js', () => ({ doc: { send: fake.send } }));

const { batchGetAcross, batchGetAll } = await import('../../functions/platform/dynamo/batch-get.js');
const { setRetryTiming } = await import('../../functions/platform/retry.js');

const keys = (prefix: string, n: number): Key[] => Array.from({ length: n }, (_, i) => ({ pk: `${prefix}${i}`, sk: 's' }));
const asked = (table: string) => fake.requests.flatMap((r) => r.RequestItems[table]?.Keys ?? []);
let restore: () => void;

beforeEach(() => {
  fake.requests.length = 0;
  fake.leave.length = 0;
  restore = setRetryTiming({ sleep: async () => undefined, random: () => 0 });
});
afterEach(() => restore());

describe('batchGetAcross', () => {
  it('fills each call with up to 100 keys, whatever their tables, and answers by table', async () => {
    const found = await batchGetAcross({ feed: keys('f', 120), graph: keys('g', 30) }, { consistent: true });
    expect(fake.requests.map((r) => Object.values(r.RequestItems).reduce((n, t) => n + t.Keys.length, 0))).toEqual([100, 50]);
    expect(fake.requests.every((r) => Object.values(r.RequestItems).every((t) => t.ConsistentRead === true))).toBe(true);
    expect(found.feed).toHaveLength(120);
    expect(found.graph).toHaveLength(30);
  });

  it('asks a key named twice once, and the same key in two tables once in each', async () => {
    const k = { pk: 'u', sk: 'profile' };
    const found = await batchGetAcross({ feed: [k, { ...k }], graph: [k] });
    expect(asked('feed')).toEqual([k]);
    expect(asked('graph')).toEqual([k]);
    expect(found.feed).toHaveLength(1);
  });

  it('asks again for what a call left unprocessed, in every table, and for nothing else', async () => {
    const [feedKeys, graphKeys] = [keys('f', 3), keys('g', 2)];
    fake.leave.push({ feed: [feedKeys[1]!], graph: [graphKeys[0]!] });
    const found = await batchGetAcross({ feed: feedKeys, graph: graphKeys });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.RequestItems).toEqual({ feed: { Keys: [feedKeys[1]] }, graph: { Keys: [graphKeys[0]] } });
    expect(found.feed?.map((i) => i.pk).sort()).toEqual(['f0', 'f1', 'f2']);
    expect(found.graph?.map((i) => i.pk).sort()).toEqual(['g0', 'g1']);
  });

  it('batchGetAll is the one-table case, and an empty ask makes no call', async () => {
    expect(await batchGetAll('graph', [])).toEqual([]);
    expect(fake.requests).toHaveLength(0);
    expect(await batchGetAll('graph', keys('g', 2))).toHaveLength(2);
  });
});
