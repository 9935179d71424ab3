/**
 * Writes a stream batch's rollup rows so that every activity is counted exactly once, whatever
 * Lambda does with the batch: retry it whole, bisect it into halves (new batch identities), resume
 * from a reported record, or retry after a write that half-succeeded or succeeded unseen.
 *
 * Why a deterministic insert id alone is not enough: rows keyed by "this batch" are overwritten by
 * an identical retry, but a bisected half or a resumed tail is a different batch, so its rows would
 * add to rows an earlier attempt already wrote for the same records. And a per-shard sequence
 * watermark is not available: Lambda's DynamoDB stream event does not say which shard a batch is
 * from, and sequence numbers are ordered only within a shard.
 *
 * The scheme — claims in the same transaction as the rows:
 *  - Each counted activity has a claim item keyed by its stream record's eventID (unique and
 *    stable across redeliveries) — the activity's entry in its actor's recent-activity window,
 *    keyed by actor, bucket of its time and eventID, all from the record itself. A chunk of
 *    activities is written as ONE TransactWriteItems: a claim per activity, conditioned on the
 *    claim not existing, plus the chunk's aggregated rollup rows.
 *  - All or nothing: a chunk's rows exist iff its claims exist. So an activity is in the totals
 *    iff it is claimed, and a claim exists at most once, so it is counted at most once (in the
 *    rollups and, being the entry itself, in the window).
 *  - A redelivered activity's claim condition fails; the transaction is cancelled as a whole (no
 *    rows written), we drop the claimed activities and write the rest as a new chunk. The handler
 *    only reports success once every activity of the batch is claimed, so each is counted at
 *    least once.
 *  - Row keys carry the chunk's first eventID. Two applied chunks never share an activity, so
 *    they never share a first eventID, so no row overwrites another applied chunk's row; a retried
 *    identical chunk (after a failure that applied nothing) rewrites identical keys.
 *  - Claims expire after max(2 days, the window), beyond the stream's 24 h retention, so no
 *    redelivery outlives its claim. Chunks are independent, so they are written concurrently.
 * Cost: one item per activity (which the window needs anyway) plus the rollup rows; transactional
 * writes cost 2 WCU per item. `npm run bench -- rollups` measures rows per batch.
 */
import { writeClaimsAndRows } from '../../stores/stats-store.js';
import { logger } from '../../platform/logger.js';
import { forEachLimit } from '../../platform/pool.js';
import { type Activity, type Chunk, type PlanOptions, planChunks } from './plan.js';

export interface ApplyResult {
  /** Chunks committed by this call. */
  readonly chunks: number;
  /** Rows (not claims) committed by this call. */
  readonly rows: number;
  /** Activities skipped because an earlier delivery had already counted them. */
  readonly alreadyCounted: number;
  /** The first activity not known to be counted, if any write failed (retry from here). */
  readonly failedAt?: Activity;
}

export interface ApplyDeps {
  readonly concurrency?: number;
}

/** Write `activities` (stream order) exactly once. Never throws; failures come back as `failedAt`. */
export async function applyActivities(activities: readonly Activity[], opts: PlanOptions, deps: ApplyDeps = {}): Promise<ApplyResult> {
  const total = { chunks: 0, rows: 0, alreadyCounted: 0 };
  let failedAt: Activity | undefined;
  const fail = (a: Activity) => {
    if (!failedAt || activities.indexOf(a) < activities.indexOf(failedAt)) failedAt = a;
  };

  // A chunk whose claims partly exist is re-planned without them: each round removes at least one
  // activity, so this ends; the bound is a backstop.
  let pending: Activity[][] = [[...activities]];
  for (let round = 0; pending.length && round < 10; round++) {
    const chunks = pending.flatMap((group) => planChunks(group, opts));
    pending = [];
    await forEachLimit(chunks, deps.concurrency ?? 4, async (chunk) => {
      const outcome = await writeChunk(chunk);
      if (outcome.ok) {
        total.chunks += 1;
        total.rows += chunk.rows.length;
      } else if (outcome.claimed) {
        total.alreadyCounted += outcome.claimed.size;
        const rest = chunk.activities.filter((a) => !outcome.claimed.has(a.eventId));
        if (rest.length) pending.push(rest);
      } else {
        fail(chunk.activities[0]!);
      }
    });
  }
  for (const group of pending) fail(group[0]!);
  return { ...total, ...(failedAt ? { failedAt } : {}) };
}

type Outcome = { ok: true } | { ok: false; claimed: Set<string> } | { ok: false; claimed?: undefined };

async function writeChunk(chunk: Chunk): Promise<Outcome> {
  const outcome = await writeClaimsAndRows(chunk.claims, chunk.rows);
  if (outcome.ok) return { ok: true };
  if ('claimedIndexes' in outcome) return { ok: false, claimed: new Set(outcome.claimedIndexes.map((i) => chunk.activities[i]!.eventId)) };
  logger.warn('rollup chunk write failed', { chunk: chunk.id, activities: chunk.activities.length, error: outcome.error as Error });
  return { ok: false };
}
