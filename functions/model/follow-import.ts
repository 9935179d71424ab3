/**
 * A bulk import of follows (POST /batch/follows) in the graph table, under `import#<batch id>`:
 *   `follows`            the journal: the batch's plan and how far it got, so a retry of a failed
 *                        call finishes exactly what the failed call began (the same edges, the same
 *                        orders, the same counts) instead of planning anew from a half-written graph
 *   `c#<nonce>#<n>`      one per counter transaction that committed: the transaction puts it under a
 *                        condition, so a retried one adds nothing twice
 * Both expire a day after they are written (the table's TTL): by then a batch is finished or given up.
 *
 * The batch id is a hash of the batch's edges (deduplicated, sorted) and its `backfill` flag, so
 * the same batch sent again finds its journal. Edge i of the sorted batch, if the plan creates
 * it, is followed at `nonce + i` ticks: its order (and so its list entries' keys) is the same in
 * every attempt, and no other follow has it.
 */
import { createHash } from 'node:crypto';
import { followOrder } from './follow-edge.js';

export interface FollowPair {
  readonly follower: string;
  readonly followee: string;
}

/** One counter change of a batch: a followee's `followers` or a follower's `following`. */
export interface CountChange {
  readonly userId: string;
  readonly counter: 'followers' | 'following';
  readonly by: number;
}

/** Why an edge of a batch was not made. */
export type SkipReason = 'blocked' | 'erased' | 'limit';

/** Seconds a journal and its counter marks are kept. */
export const IMPORT_JOURNAL_TTL_SECONDS = 24 * 3600;

/** The batch's edges, each once, sorted by follower then followee (each follower's edges together). */
export function canonicalPairs(pairs: readonly FollowPair[]): FollowPair[] {
  const seen = new Map<string, FollowPair>();
  for (const p of pairs) seen.set(`${p.follower}\n${p.followee}`, { follower: p.follower, followee: p.followee });
  return [...seen.values()].sort((a, b) =>
    a.follower < b.follower ? -1 : a.follower > b.follower ? 1 : a.followee < b.followee ? -1 : a.followee > b.followee ? 1 : 0,
  );
}

/** The id of a batch: SHA-256 of its canonical edges and its backfill flag. */
export function importBatchId(canonical: readonly FollowPair[], backfill: boolean): string {
  // JSON: an unambiguous encoding, whatever the ids hold.
  const text = JSON.stringify([backfill, ...canonical.map((p) => [p.follower, p.followee])]);
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}

const partition = (batchId: string) => `import#${batchId}`;
export const importJournalKey = (batchId: string) => ({ pk: partition(batchId), sk: 'follows' });
export const importCountMarkKey = (batchId: string, nonce: bigint, n: number) => ({ pk: partition(batchId), sk: `c#${nonce}#${n}` });

/** Ticks (and so order) of edge `index` of a batch planned at `nonce`. */
export const importTicks = (nonce: bigint, index: number): bigint => nonce + BigInt(index);
export const importOrder = (nonce: bigint, index: number): string => followOrder(importTicks(nonce, index));

export type JournalPhase = 'writing' | 'counting' | 'done';

/** The journal, as the service uses it: indexes name edges of the canonical batch. */
export interface ImportJournal {
  readonly nonce: bigint;
  readonly phase: JournalPhase;
  /** Writing: the edges the plan creates. Counting/done: the edges this batch counts. */
  readonly created: readonly number[];
  /** Of those, the ones whose follower muted the followee (flagged edges, no backfill). */
  readonly muted: readonly number[];
  /** Of those, the ones to backfill (asked for, not muted, the followee pushed and with posts). */
  readonly backfills: readonly number[];
  /** Edges the plan skipped, and why. */
  readonly skipped: readonly { readonly index: number; readonly reason: SkipReason }[];
  /** Edges that already stood, or that another writer made meanwhile (not counted by this batch). */
  readonly existing: number;
  /** Each follower's graphVersion when the plan read the graph (keyed by follower id). */
  readonly versions: Readonly<Record<string, number>>;
  /** Ticks when the plan read the graph. */
  readonly plannedAt: bigint;
  /** Counting: edges to take back after counting (a block, an erase or the limit reached them meanwhile). */
  readonly undo: readonly { readonly index: number; readonly reason: SkipReason }[];
  /** Counting: edges whose mute flag must be set (true) or cleared (false) after counting. */
  readonly remute: readonly { readonly index: number; readonly muted: boolean }[];
}

export function journalItem(batchId: string, j: ImportJournal, nowSeconds: number): Record<string, unknown> {
  return {
    ...importJournalKey(batchId),
    nonce: j.nonce.toString(),
    phase: j.phase,
    created: [...j.created],
    muted: [...j.muted],
    backfills: [...j.backfills],
    skipped: j.skipped.map((s) => ({ ...s })),
    existing: j.existing,
    versions: { ...j.versions },
    plannedAt: j.plannedAt.toString(),
    undo: j.undo.map((u) => ({ ...u })),
    remute: j.remute.map((r) => ({ ...r })),
    expiresAt: nowSeconds + IMPORT_JOURNAL_TTL_SECONDS,
  };
}

const numbers = (v: unknown): number[] => (Array.isArray(v) ? v.map((n) => Number(String(n))) : []);

export function parseJournal(item: Record<string, unknown> | undefined): ImportJournal | undefined {
  if (!item) return undefined;
  const records = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
  return {
    nonce: BigInt(String(item.nonce)),
    phase: item.phase === 'done' ? 'done' : item.phase === 'counting' ? 'counting' : 'writing',
    created: numbers(item.created),
    muted: numbers(item.muted),
    backfills: numbers(item.backfills),
    skipped: records(item.skipped).map((s) => ({ index: Number(String(s.index)), reason: s.reason as SkipReason })),
    existing: Number(String(item.existing ?? 0)),
    versions: Object.fromEntries(Object.entries((item.versions ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Number(String(v))])),
    plannedAt: BigInt(String(item.plannedAt ?? 0)),
    undo: records(item.undo).map((u) => ({ index: Number(String(u.index)), reason: u.reason as SkipReason })),
    remute: records(item.remute).map((r) => ({ index: Number(String(r.index)), muted: r.muted === true })),
  };
}
