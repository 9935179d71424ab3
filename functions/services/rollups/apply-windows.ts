/**
 * Writes rollups once per tumbling window per stream shard, not once per activity, and counts
 * every activity exactly once whatever Lambda does: retry an invocation, bisect a batch (halves
 * with new identities), retry after a BatchWriteItem that half-succeeded, or deliver records
 * again after a checkpoint that was lost.
 *
 * The scheme:
 *  - Aggregating costs nothing: every invocation of a window folds its records into the state
 *    Lambda carries (state.ts). A failed invocation changes no state — Lambda retries it, whole or
 *    bisected, with the state the last successful one returned — so a record is folded in once,
 *    and one delivered again is recognised by its sequence number (at or below the segment's last).
 *  - Writing happens once per segment, from a state Lambda handed in — never from records of the
 *    same invocation. At the window's final invocation the state is the segment: its rollup rows
 *    and activity entries go out in BatchWriteItem calls (1 WCU per item, not a transaction),
 *    keyed by the segment's id = (shard, first record). What a retry writes is therefore what the
 *    failed attempt wrote: same keys, same values. A write that half-succeeded is completed by the
 *    retry, never added to.
 *  - Then a commit mark records the segment's range (model/rollup-segment.ts). A new segment
 *    starts past the shard's newest mark, so records delivered again after a lost checkpoint are
 *    not counted twice. (Lambda processes a shard's records in order, and a failed window's
 *    records are discarded, so nothing uncounted lies below the mark — except records a re-drive
 *    replays: the replay starts from the marks inside its range instead.)
 *  - A state nearing Lambda's 1 MB limit is written as a segment of its own at the start of the
 *    next invocation (before that invocation's records are added), and the window goes on with a
 *    new segment.
 *  - Should a final invocation carry records, each is written as a segment of one record keyed by
 *    its eventID: however a retry splits them, each record's items are the same.
 *  - An activity entry names its actor: entries of a user being erased are not written (the erase
 *    runs long after the mark it checks is set; rollup rows hold no user id).
 * Cost per window and shard: one item per (series, minute) and per (actor, bucket) touched, plus
 * the mark; reads: the newest mark (one Query) and the erase marks of the segment's actors.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { DynamoDBStreamWindowEvent, WindowStateJson } from '../../../lib/defs/stream-window.js';
import { recordSegmentId, rollupCommitItem, rollupCommitPartition, segmentIdOf } from '../../model/rollup-segment.js';
import { erasureMarked } from '../../stores/erasure-store.js';
import { newestRollupCommit, putRollupCommit, putStatItems, rollupCommitsWithin } from '../../stores/stats-store.js';
import { activityOf, addActivity, emptyAggregate, type PlanOptions, type SegmentItems, segmentItems } from './plan.js';
import {
  addRecords,
  alreadyCounted,
  decodeState,
  encodeState,
  isSegmentEmpty,
  nextSegmentState,
  replayOf,
  startState,
  stateBytes,
  type WindowState,
} from './state.js';

/**
 * A state this large is written as a segment before more is added (Lambda ends a window whose
 * state passes 1 MB; a batch of 1,000 records adds at most ~200 KB).
 */
export const STATE_BUDGET_BYTES = 512 * 1024;

export interface Written {
  segments: number;
  rows: number;
  entries: number;
  /** Activity entries not written: their actor is being erased. */
  skippedErased: number;
}

const none = (): Written => ({ segments: 0, rows: 0, entries: 0, skippedErased: 0 });
const add = (a: Written, b: Written) => {
  a.segments += b.segments;
  a.rows += b.rows;
  a.entries += b.entries;
  a.skippedErased += b.skippedErased;
};

interface Shard {
  readonly streamArn: string;
  readonly shardId: string;
}

/** One invocation of a window: the state to hand back, and what was written. Throws if a write failed. */
export async function applyWindowEvent(
  event: DynamoDBStreamWindowEvent,
  opts: PlanOptions,
  budgetBytes = STATE_BUDGET_BYTES,
): Promise<{ state: WindowStateJson; written: Written }> {
  const shard: Shard = { streamArn: event.eventSourceARN, shardId: event.shardId };
  const written = none();
  let state = decodeState(event.state) ?? (await startOfWindow(shard, event.state));

  if (event.isFinalInvokeForWindow) {
    add(written, await writeSegment(shard, state, opts));
    const late = event.Records.filter((r) => r.dynamodb?.SequenceNumber !== undefined && !alreadyCounted(state, r.dynamodb.SequenceNumber));
    if (late.length) {
      add(written, await writeRecordSegments(late, opts));
      await putRollupCommit(rollupCommitItem(shard.streamArn, shard.shardId, { first: seqOf(late[0]!), last: seqOf(late.at(-1)!) }, opts.nowMs));
    }
    return { state: {}, written };
  }

  if (stateBytes(event.state) > budgetBytes) {
    add(written, await writeSegment(shard, state, opts));
    state = nextSegmentState(state);
  }
  addRecords(state, event.Records, opts);
  return { state: encodeState(state), written };
}

/** Records outside any window (a mapping without a tumbling window): a segment per record. */
export const applyRecords = (records: readonly DynamoDBRecord[], opts: PlanOptions): Promise<Written> => writeRecordSegments(records, opts);

const seqOf = (r: DynamoDBRecord) => r.dynamodb!.SequenceNumber!;

/** A new window's state: past the shard's newest mark, or — replaying a range — past the marks inside it. */
async function startOfWindow(shard: Shard, json: WindowStateJson | undefined): Promise<WindowState> {
  const pk = rollupCommitPartition(shard.streamArn, shard.shardId);
  const replay = replayOf(json);
  if (replay) return startState({ skip: await rollupCommitsWithin(pk, replay) });
  const newest = await newestRollupCommit(pk);
  return startState({ after: newest?.last });
}

/** Write the segment `state` holds, then its commit mark. Writing it again writes the same items. */
async function writeSegment(shard: Shard, state: WindowState, opts: PlanOptions): Promise<Written> {
  if (isSegmentEmpty(state)) return none();
  const range = { first: state.first!, last: state.last! };
  const written = await putSegment(segmentItems(state.agg, segmentIdOf(shard.streamArn, shard.shardId, range.first), opts));
  await putRollupCommit(rollupCommitItem(shard.streamArn, shard.shardId, range, opts.nowMs));
  return { ...written, segments: 1 };
}

/** Each activity as a segment of its own, keyed by its eventID. */
async function writeRecordSegments(records: readonly DynamoDBRecord[], opts: PlanOptions): Promise<Written> {
  const rows: SegmentItems['rows'] = [];
  const entries: SegmentItems['entries'] = [];
  let segments = 0;
  for (const record of records) {
    const activity = activityOf(record);
    if (!activity) continue;
    const agg = emptyAggregate();
    addActivity(agg, activity, opts);
    const items = segmentItems(agg, recordSegmentId(activity.eventId), opts);
    rows.push(...items.rows);
    entries.push(...items.entries);
    segments += 1;
  }
  return { ...(await putSegment({ rows, entries })), segments };
}

async function putSegment({ rows, entries }: SegmentItems): Promise<Written> {
  const erased = entries.length ? await erasureMarked([...new Set(entries.map((e) => e.userId))]) : new Set<string>();
  const kept = entries.filter((e) => !erased.has(e.userId));
  if (rows.length + kept.length) await putStatItems([...rows, ...kept]);
  return { segments: 0, rows: rows.length, entries: kept.length, skippedErased: entries.length - kept.length };
}
