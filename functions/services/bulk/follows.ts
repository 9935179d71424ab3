/**
 * POST /batch/follows: up to 1,000 follows at the cost of writing them in batches, with counts as
 * exact as one follow's transaction keeps them. No notifications; backfill only when asked.
 *
 *   plan     one strongly consistent BatchGet reads the batch's edges, blocks, mutes, erase marks
 *            and profiles; follow-plan.ts decides per edge: create, skip (blocked, erased, limit)
 *            or leave (it stands). Nothing to create: answered here, nothing written.
 *   journal  the plan is saved (model/follow-import.ts) before any edge is: a retry of a failed
 *            call — the same batch — finds it and finishes the same plan
 *   write    list entries, then edges (BatchWriteItem), at orders fixed by the plan
 *   verify   blocks, mutes, erase marks and followers' graphVersion read again: a follower whose
 *            graphVersion moved made follows of their own meanwhile — one of ours may have
 *            overwritten one of theirs, whose list entries then go, and which we do not count; a
 *            block, an erase or a mute that arrived meanwhile is noted (a mute placed meanwhile
 *            cannot miss our edge: its transaction checks that no follow appeared)
 *   count    per user, one change of `followers` (on a follower-count shard) or `following`, in
 *            transactions of 99 that each put a mark: the journal's counted edges always make the
 *            same transactions, and a mark makes a retried one a no-op
 *   repair   what verify noted: unfollow (counts and cleanups as an unfollow), set the mute flag;
 *            a pulled followee joins each new follower's pulled set; backfills; the pull threshold,
 *            checked with a chance that makes it about one Query per 1 % of the threshold gained
 *
 * Not guarded: two *different* batches holding the same edge, run at the same time (run such
 * batches one after the other); and a retry after a failed call where an edge that call wrote was
 * meanwhile unfollowed and its cleanup already deleted it (the retry writes it again).
 */
import { setting } from '../../../lib/defs/config.js';
import { canonicalPairs, type FollowPair, type ImportJournal, importBatchId, importOrder, type SkipReason } from '../../model/follow-import.js';
import { authorRoadStores } from '../../model/copy-rule.js';
import { followerShardOf } from '../../model/profile.js';
import { nowTicks } from '../../platform/clock.js';
import { forEachLimit } from '../../platform/pool.js';
import { setFollowMuted } from '../../stores/controls-store.js';
import { hasOriginals } from '../../stores/feed-store.js';
import {
  applyImportCounts,
  getImportJournal,
  type ImportRead,
  readForImport,
  saveImportJournal,
  startImportJournal,
} from '../../stores/follow-import-store.js';
import { addPulledWhileFollowing, deleteListEntries, followsSince, writeImportedFollows } from '../../stores/follow-store.js';
import { checkThreshold, unfollow } from '../follow-graph.js';
import { controlSettleSeconds } from '../controls-state.js';
import { enqueueJob, enqueueJobs } from '../jobs/bus.js';
import { pullThresholds } from '../pulled-authors/thresholds.js';
import { countTransactions, planFollows } from './follow-plan.js';

/** The draw that decides a threshold check. */
const thresholdDraw: () => number = Math.random;

export interface ImportFollowsResult {
  readonly created: number;
  readonly existing: number;
  readonly skipped: { follower: string; followee: string; reason: SkipReason }[];
}

/** A follow made by the user while a plan ran may carry ticks from up to this long before it (a request's timeout, with room). */
const CONCURRENT_FOLLOW_WINDOW_NS = 60n * 1_000_000_000n;

const maxFollowingOf = () => setting('MAX_FOLLOWING');

export async function importFollows(follows: readonly FollowPair[], backfill: boolean): Promise<ImportFollowsResult> {
  const pairs = canonicalPairs(follows);
  const repeated = follows.length - pairs.length;
  const batchId = importBatchId(pairs, backfill);
  let journal = await getImportJournal(batchId);
  let fresh = false;
  if (journal === undefined || journal.phase === 'done') {
    const planned = await plan(pairs, backfill);
    if (planned.created.length === 0) return resultOf(pairs, planned, repeated);
    fresh = (await startImportJournal(batchId, planned)) === 'started';
    // Not started: a call of the same batch is under way; this one runs the same plan with it.
    journal = fresh ? planned : await getImportJournal(batchId);
    if (journal === undefined) throw new Error(`import ${batchId}: the journal vanished`);
  }
  if (journal.phase === 'writing') journal = await verify(batchId, pairs, journal, await write(pairs, journal, fresh ? 'fresh' : 'resumed'));
  if (journal.phase === 'counting') await finish(batchId, pairs, journal);
  return resultOf(pairs, journal, repeated);
}

/** Read the graph for the whole batch and decide; the journal to start (phase `writing`). */
async function plan(pairs: readonly FollowPair[], backfill: boolean): Promise<ImportJournal> {
  const plannedAt = nowTicks();
  const all = pairs.map((_, i) => i);
  const followers = unique(pairs.map((p) => p.follower));
  const followees = unique(pairs.map((p) => p.followee));
  // Followees' profiles (pulled) only matter here to decide backfills; verify reads them after the writes anyway.
  const read = await readForImport(pairs, {
    edges: all,
    controls: all,
    erasure: [...followers, ...followees],
    profiles: backfill ? [...followers, ...followees] : followers,
  });
  const decided = planFollows(
    pairs,
    {
      edge: (i) => read.edges.get(i),
      blocked: (i) => read.blocked.has(i),
      muted: (i) => read.muted.has(i),
      erased: (u) => read.erased.has(u),
      following: (u) => read.profiles.get(u)!.following,
    },
    maxFollowingOf(),
  );
  const muted = new Set(decided.muted);
  let backfills: number[] = [];
  if (backfill) {
    const wanted = decided.create.filter((i) => authorRoadStores({ active: true, muted: muted.has(i) }, read.profiles.get(pairs[i]!.followee)!.pulled));
    const withPosts = new Set<string>();
    await forEachLimit(unique(wanted.map((i) => pairs[i]!.followee)), 16, async (f) => void ((await hasOriginals(f)) && withPosts.add(f)));
    backfills = wanted.filter((i) => withPosts.has(pairs[i]!.followee));
  }
  return {
    nonce: plannedAt,
    phase: 'writing',
    created: decided.create,
    muted: decided.muted,
    backfills,
    skipped: decided.skipped,
    existing: decided.existing,
    versions: Object.fromEntries(followers.map((f) => [f, read.profiles.get(f)!.graphVersion])),
    plannedAt,
    undo: [],
    remute: [],
  };
}

/**
 * Write the plan's follows; the ones another writer made meanwhile (not counted by us). A resumed
 * plan first reads which are there already — at our order: ours, written by the failed call; at
 * another: another writer's, made since the plan (our list entries, if the failed call wrote them,
 * go) — and writes only the absent ones.
 */
async function write(pairs: readonly FollowPair[], journal: ImportJournal, how: 'fresh' | 'resumed'): Promise<number[]> {
  const muted = new Set(journal.muted);
  const backfills = new Set(journal.backfills);
  let todo = journal.created;
  let lost: number[] = [];
  if (how === 'resumed') {
    const { edges } = await readForImport(pairs, { edges: journal.created });
    todo = journal.created.filter((i) => edges.get(i) === undefined);
    lost = journal.created.filter((i) => edges.get(i) !== undefined && edges.get(i)!.order !== importOrder(journal.nonce, i));
    await deleteListEntries(lost.map((i) => ({ ...pairs[i]!, order: importOrder(journal.nonce, i) })));
  }
  await writeImportedFollows(
    pairs,
    journal.nonce,
    todo.map((index) => ({ index, muted: muted.has(index), backfillPending: backfills.has(index) })),
  );
  return lost;
}

/** After writing: the journal of what to count and repair (phase `counting`), saved. */
async function verify(batchId: string, pairs: readonly FollowPair[], journal: ImportJournal, lostToOthers: readonly number[]): Promise<ImportJournal> {
  const lost = new Set(lostToOthers);
  const created = journal.created.filter((i) => !lost.has(i));
  const users = unique(created.flatMap((i) => [pairs[i]!.follower, pairs[i]!.followee]));
  const read = await readForImport(pairs, { controls: created, erasure: users, profiles: unique(created.map((i) => pairs[i]!.follower)) });

  // A follower who made follows of their own meanwhile may have made one of ours first: our edge
  // then overwrote theirs (same key). Theirs counted itself; its list entries go, ours stay.
  const overwritten = new Set(await overwrittenFollows(pairs, journal, read));
  const counted = created.filter((i) => !overwritten.has(i));

  const undo = [...journal.undo];
  const remute = [...journal.remute];
  const wasMuted = new Set(journal.muted);
  for (const i of counted) {
    const p = pairs[i]!;
    if (read.erased.has(p.follower) || read.erased.has(p.followee)) undo.push({ index: i, reason: 'erased' });
    else if (read.blocked.has(i)) undo.push({ index: i, reason: 'blocked' });
    else if (read.muted.has(i) !== wasMuted.has(i)) remute.push({ index: i, muted: read.muted.has(i) });
  }
  const next: ImportJournal = { ...journal, phase: 'counting', created: counted, existing: journal.existing + lost.size + overwritten.size, undo, remute };
  await saveImportJournal(batchId, next);
  return next;
}

/**
 * The edges of `journal` a follower made themselves while the batch was written (see verify): for
 * each follower whose graphVersion moved since the plan, their following-list entries since then
 * at another order than ours name them; those entries are deleted here.
 */
async function overwrittenFollows(pairs: readonly FollowPair[], journal: ImportJournal, read: ImportRead): Promise<number[]> {
  const moved = unique(journal.created.map((i) => pairs[i]!.follower)).filter((f) => (read.profiles.get(f)?.graphVersion ?? 0) !== (journal.versions[f] ?? 0));
  if (moved.length === 0) return [];
  const indexOf = new Map(journal.created.map((i) => [`${pairs[i]!.follower}\n${pairs[i]!.followee}`, i]));
  const found: { index: number; order: string }[] = [];
  await forEachLimit(moved, 8, async (follower) => {
    for (const { followee, order } of await followsSince(follower, journal.plannedAt - CONCURRENT_FOLLOW_WINDOW_NS, nowTicks())) {
      const index = indexOf.get(`${follower}\n${followee}`);
      if (index !== undefined && order !== importOrder(journal.nonce, index)) found.push({ index, order });
    }
  });
  await deleteListEntries(found.map(({ index, order }) => ({ ...pairs[index]!, order })));
  return found.map((f) => f.index);
}

/** Count, repair, backfill, check thresholds; then the journal is done. Every step may run again. */
async function finish(batchId: string, pairs: readonly FollowPair[], journal: ImportJournal): Promise<void> {
  const shard = followerShardOf(batchId);
  const transactions = countTransactions(pairs, journal.created);
  await forEachLimit(
    transactions.map((changes, n) => ({ changes, n })),
    4,
    async ({ changes, n }) => void (await applyImportCounts(batchId, journal.nonce, n, changes, shard)),
  );
  const undone = new Set(journal.undo.map((u) => u.index));
  await forEachLimit(journal.undo, 8, ({ index }) => unfollow(pairs[index]!.follower, pairs[index]!.followee));
  await forEachLimit(journal.remute, 8, async ({ index, muted }) => {
    const { follower, followee } = pairs[index]!;
    await setFollowMuted(follower, followee, { order: importOrder(journal.nonce, index) }, muted);
    // A post fanned out before the flag was set: the mute's cleanup, now and once fan-outs settle.
    if (muted) {
      await enqueueJob({ kind: 'muteCleanup', follower, followee });
      await enqueueJob({ kind: 'muteCleanup', follower, followee }, controlSettleSeconds());
    }
  });

  // A pulled followee's posts are merged at read time: each new (unmuted) follower's pulled set
  // names them. Read after the edges were written, so a pull job that started before our lists
  // were there is seen here, and one that starts later pages them.
  const kept = journal.created.filter((i) => !undone.has(i));
  const remuted = new Map(journal.remute.map((r) => [r.index, r.muted]));
  const planMuted = new Set(journal.muted);
  const muted = new Set(kept.filter((i) => remuted.get(i) ?? planMuted.has(i)));
  const followees = unique(kept.map((i) => pairs[i]!.followee));
  const { profiles } = await readForImport(pairs, { profiles: followees });
  await forEachLimit(
    kept.filter((i) => !muted.has(i) && profiles.get(pairs[i]!.followee)!.pulled),
    16,
    (i) => addPulledWhileFollowing(pairs[i]!.follower, pairs[i]!.followee),
  );

  const backfills = journal.backfills.filter((i) => !undone.has(i) && !muted.has(i));
  const failed = await enqueueJobs(backfills.map((i) => ({ kind: 'backfill' as const, follower: pairs[i]!.follower, followee: pairs[i]!.followee })));
  if (failed.length) throw new Error(`import ${batchId}: ${failed.length} backfill jobs not enqueued`);

  // A pushed followee that gained followers may have crossed FANOUT_PULL_THRESHOLD. Reading a
  // count costs a Query, so each is checked with a chance of its gain in hundredths of the
  // threshold (certain from 1 %): about one check per 1 % gained, as trims are drawn per copy.
  const gained = new Map<string, number>();
  for (const i of kept) gained.set(pairs[i]!.followee, (gained.get(pairs[i]!.followee) ?? 0) + 1);
  const { pullAt } = pullThresholds();
  const due = followees.filter((f) => !profiles.get(f)!.pulled && thresholdDraw() < (gained.get(f)! * 100) / pullAt);
  await forEachLimit(due, 16, async (f) => void (await checkThreshold(f)));
  await saveImportJournal(batchId, { ...journal, phase: 'done' });
}

function resultOf(
  pairs: readonly FollowPair[],
  journal: Pick<ImportJournal, 'created' | 'existing' | 'skipped' | 'undo'>,
  repeated: number,
): ImportFollowsResult {
  const skipped = [...journal.skipped, ...journal.undo].sort((a, b) => a.index - b.index);
  return {
    created: journal.created.length - journal.undo.length,
    existing: journal.existing + repeated,
    skipped: skipped.map(({ index, reason }) => ({ ...pairs[index]!, reason })),
  };
}

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];
