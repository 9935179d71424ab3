/** The pure parts of a bulk follow import: the batch's identity, the plan, the counter transactions, the journal. */
import { describe, expect, it } from 'vitest';
import type { Edge } from '../../functions/model/follow-edge.js';
import { canonicalPairs, importBatchId, importOrder, journalItem, parseJournal, type ImportJournal } from '../../functions/model/follow-import.js';
import { COUNTS_PER_TRANSACTION, countTransactions, type GraphRead, planFollows } from '../../functions/services/bulk/follow-plan.js';

const pair = (follower: string, followee: string) => ({ follower, followee });
const active: Edge = { state: 'active', order: '1', followedAt: 1n, backfillPending: false, cleanupPending: false, muted: false };
const gone: Edge = { ...active, state: 'gone' };

function graph(over: Partial<GraphRead> = {}): GraphRead {
  return { edge: () => undefined, blocked: () => false, muted: () => false, erased: () => false, following: () => 0, ...over };
}

describe('a batch of follows', () => {
  it('is its edges once each, sorted by follower then followee, named by a hash of them and the backfill flag', () => {
    const body = [pair('b', 'x'), pair('a', 'z'), pair('b', 'x'), pair('a', 'y')];
    expect(canonicalPairs(body)).toEqual([pair('a', 'y'), pair('a', 'z'), pair('b', 'x')]);
    const id = importBatchId(canonicalPairs(body), false);
    expect(importBatchId(canonicalPairs([...body].reverse()), false)).toBe(id);
    expect(importBatchId(canonicalPairs(body), true)).not.toBe(id);
    expect(importBatchId(canonicalPairs([pair('a', 'y'), pair('a', 'z')]), false)).not.toBe(id);
    // Ids holding the separators cannot make two batches one.
    expect(importBatchId([pair('a\u0000b', 'c')], false)).not.toBe(importBatchId([pair('a', 'b\u0000c')], false));
  });

  it('gives edge i of a plan its own order, the same in every attempt', () => {
    expect(importOrder(1_000n, 3)).toBe(importOrder(1_000n, 3));
    expect(importOrder(1_000n, 3) < importOrder(1_000n, 2)).toBe(true); // later index: newer: sorts first
  });
});

describe('planFollows', () => {
  const pairs = canonicalPairs([pair('a', 'p'), pair('a', 'q'), pair('a', 'r'), pair('b', 'p'), pair('c', 'p'), pair('d', 'x')]);
  const at = (f: string, g: string) => pairs.findIndex((p) => p.follower === f && p.followee === g);

  it('leaves standing edges, renews gone ones, skips erased users and blocks, flags mutes', () => {
    const plan = planFollows(
      pairs,
      graph({
        edge: (i) => (i === at('a', 'p') ? active : i === at('b', 'p') ? gone : undefined),
        erased: (u) => u === 'x',
        blocked: (i) => i === at('c', 'p'),
        muted: (i) => i === at('a', 'q'),
      }),
      100,
    );
    expect(plan.existing).toBe(1);
    expect(plan.create).toEqual([at('a', 'q'), at('a', 'r'), at('b', 'p')]);
    expect(plan.muted).toEqual([at('a', 'q')]);
    expect(plan.skipped).toEqual([
      { index: at('c', 'p'), reason: 'blocked' },
      { index: at('d', 'x'), reason: 'erased' },
    ]);
  });

  it('stops a follower at MAX_FOLLOWING, counting their follows as read and then the batch in order', () => {
    const plan = planFollows(pairs, graph({ following: (u) => (u === 'a' ? 8 : 0) }), 10);
    expect(plan.create).toEqual([at('a', 'p'), at('a', 'q'), at('b', 'p'), at('c', 'p'), at('d', 'x')]);
    expect(plan.skipped).toEqual([{ index: at('a', 'r'), reason: 'limit' }]);
  });
});

describe('countTransactions', () => {
  it('changes each user’s counter once, in a fixed order, 99 to a transaction', () => {
    const pairs = canonicalPairs([pair('a', 'p'), pair('a', 'q'), pair('b', 'p')]);
    expect(countTransactions(pairs, [0, 1, 2])).toEqual([
      [
        { userId: 'a', counter: 'following', by: 2 },
        { userId: 'b', counter: 'following', by: 1 },
        { userId: 'p', counter: 'followers', by: 2 },
        { userId: 'q', counter: 'followers', by: 1 },
      ],
    ]);
    expect(countTransactions(pairs, [2, 0, 1])).toEqual(countTransactions(pairs, [0, 1, 2]));

    const many = canonicalPairs(Array.from({ length: 150 }, (_, i) => pair(`f${i}`, 'star')));
    const txs = countTransactions(
      many,
      many.map((_, i) => i),
    );
    expect(txs.map((t) => t.length)).toEqual([COUNTS_PER_TRANSACTION, 151 - COUNTS_PER_TRANSACTION]);
    expect(txs.flat().find((c) => c.userId === 'star')).toEqual({ userId: 'star', counter: 'followers', by: 150 });
  });
});

describe('the import journal', () => {
  it('reads back what was written', () => {
    const journal: ImportJournal = {
      nonce: 1_234_567_890_123_456_789n,
      phase: 'counting',
      created: [0, 2, 5],
      muted: [2],
      backfills: [0],
      skipped: [{ index: 1, reason: 'blocked' }],
      existing: 3,
      versions: { alice: 4, bob: 0 },
      plannedAt: 1_234_567_890_000_000_000n,
      undo: [{ index: 5, reason: 'erased' }],
      remute: [{ index: 0, muted: true }],
    };
    const item = journalItem('batch', journal, 1_000);
    expect(item).toMatchObject({ pk: 'import#batch', sk: 'follows', expiresAt: 1_000 + 24 * 3600 });
    expect(parseJournal(JSON.parse(JSON.stringify(item)))).toEqual(journal);
    expect(parseJournal(undefined)).toBeUndefined();
  });
});
