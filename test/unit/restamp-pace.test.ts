/**
 * A restamp (nothing missing: background) yields: it writes its follows' and push tag follows' entries two at a time, where
 * a stamp (a returning reader waits for it) writes sixteen (services/reader-activity/stamp.ts). The
 * stores are replaced by lists; each entry write takes a macrotask, so how many are in flight at
 * once is the job's pace, not chance.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';

const { writes, entryWrite } = vi.hoisted(() => {
  const writes = { inFlight: 0, most: 0, done: 0 };
  /** One entry write: counted while in flight, done a macrotask later. */
  const entryWrite = async () => {
    writes.most = Math.max(writes.most, ++writes.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    writes.inFlight--;
    writes.done++;
  };
  return { writes, entryWrite };
});
const FOLLOWS = 40;
const TAG_FOLLOWS = 20;

vi.mock('../../functions/stores/feed-store.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  readHead: async () => ({ pulled: [], tags: [] }),
  originalsSince: async () => [],
  setHeadActiveUntil: async () => undefined,
}));
vi.mock('../../functions/stores/follow-store.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  followeesPage: async () => ({ items: Array.from({ length: FOLLOWS }, (_, i) => ({ followee: `f${i}`, order: `o${i}`, muted: false })) }),
  stampFollowerEntry: entryWrite,
}));
vi.mock('../../functions/stores/tag-store.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  tagFollowsPage: async () => ({ items: Array.from({ length: TAG_FOLLOWS }, (_, i) => ({ key: `t${i}`, mode: 'push', followedAt: 0n })) }),
  stampTagFollowerEntry: entryWrite,
}));

let stamp: typeof import('../../functions/services/reader-activity/stamp.js').stamp;

beforeAll(async () => {
  process.env.FANOUT_ACTIVE_WINDOW = '30d';
  stamp = (await import('../../functions/services/reader-activity/stamp.js')).stamp;
});

async function paceOf(kind: 'stamp' | 'restamp'): Promise<{ most: number; done: number }> {
  Object.assign(writes, { inFlight: 0, most: 0, done: 0 });
  // Follows' entries, then push tag follows' entries (two pools, one after the other).
  await stamp({ kind, reader: 'reader', until: String(BigInt(Date.now()) * 1_000_000n) });
  return { most: writes.most, done: writes.done };
}

describe('how many entry writes a stamp job has in flight', () => {
  it('a restamp, two at a time, its tag follows too: it yields to the reads and fan-outs beside it', async () => {
    expect(await paceOf('restamp')).toEqual({ most: 2, done: FOLLOWS + TAG_FOLLOWS });
  });

  it('a stamp, sixteen: its reader is waiting for it', async () => {
    expect(await paceOf('stamp')).toEqual({ most: 16, done: FOLLOWS + TAG_FOLLOWS });
  });
});
