/**
 * The state the rollups consumer keeps through a tumbling window (Lambda hands it back on every
 * invocation of the window, lib/defs/stream-window.ts): the segment being aggregated — its first
 * and last record, its rollup cells and per-(actor, bucket) counts — and what it must not count
 * again. Pure: encoding, decoding and folding records in.
 *
 * What is already counted, so a record delivered again is skipped:
 *  - records at or below `after`: the shard's high-water mark when the segment began (the last
 *    record of the newest committed segment), or the previous segment's last record;
 *  - records at or below `last`: this segment's (Lambda delivers records in order the first time,
 *    so anything at or below the last one seen is a redelivery);
 *  - in a replay of a re-driven range, the ranges of the segments committed inside it (`skip`):
 *    there `after` is unknown on purpose — later windows committed past the failed records.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { Combine } from '../../../lib/defs/rollup-spec.js';
import type { ReplayState, WindowStateJson } from '../../../lib/defs/stream-window.js';
import type { SegmentRange } from '../../model/rollup-segment.js';
import { type Aggregate, activityOf, addActivity, emptyAggregate, type PlanOptions } from './plan.js';

export interface WindowState {
  readonly after?: string;
  readonly skip: readonly SegmentRange[];
  first?: string;
  last?: string;
  readonly agg: Aggregate;
}

const VERSION = 1;

type CellJson = [series: string, combine: Combine, minuteMs: number, value: number, n: number];
type UserJson = [userId: string, bucketMs: number, count: number];

interface StateJson {
  v: typeof VERSION;
  after?: string;
  skip?: [string, string][];
  first?: string;
  last?: string;
  cells: CellJson[];
  users: UserJson[];
}

export const startState = (from: { after?: string; skip?: readonly SegmentRange[] }): WindowState => ({
  ...(from.after === undefined ? {} : { after: from.after }),
  skip: from.skip ?? [],
  agg: emptyAggregate(),
});

/** The state after a segment is written: the next one starts past its last record. */
export const nextSegmentState = (s: WindowState): WindowState => startState({ after: s.last ?? s.after, skip: s.skip });

export function encodeState(s: WindowState): WindowStateJson {
  const json: StateJson = {
    v: VERSION,
    ...(s.after === undefined ? {} : { after: s.after }),
    ...(s.skip.length ? { skip: s.skip.map((r): [string, string] => [r.first, r.last]) } : {}),
    ...(s.first === undefined ? {} : { first: s.first, last: s.last }),
    cells: [...s.agg.cells.values()].map((c): CellJson => [c.series, c.combine, c.minuteMs, c.value, c.n]),
    users: [...s.agg.users.values()].map((u): UserJson => [u.userId, u.bucketMs, u.count]),
  };
  return json as unknown as WindowStateJson;
}

/** The state of a window under way, or undefined if none started yet (`{}`, or a replay's start). */
export function decodeState(json: WindowStateJson | undefined): WindowState | undefined {
  if (!json || json.v === undefined) return undefined;
  if (json.v !== VERSION) throw new Error(`rollup window state of version ${String(json.v)}: this consumer reads ${VERSION}`);
  const s = json as unknown as StateJson;
  const agg = emptyAggregate();
  for (const [series, combine, minuteMs, value, n] of s.cells) agg.cells.set(`${series}|${minuteMs}`, { series, combine, minuteMs, value, n });
  for (const [userId, bucketMs, count] of s.users) agg.users.set(`${bucketMs}|${userId}`, { userId, bucketMs, count });
  return {
    ...(s.after === undefined ? {} : { after: s.after }),
    skip: (s.skip ?? []).map(([first, last]) => ({ first, last })),
    ...(s.first === undefined ? {} : { first: s.first, last: s.last }),
    agg,
  };
}

/** The range a re-drive replays, if `json` is a replay's initial state. */
export function replayOf(json: WindowStateJson | undefined): SegmentRange | undefined {
  // The rule calls this assertion unnecessary; without it `replay` is `{}` and has no from/to (tsc).
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  const replay = (json as Partial<ReplayState> | undefined)?.replay;
  return replay && typeof replay.from === 'string' && typeof replay.to === 'string' ? { first: replay.from, last: replay.to } : undefined;
}

/** Size of a state as Lambda measures it (its JSON, ≤ 1 MB per shard). */
export const stateBytes = (json: WindowStateJson | undefined) => (json ? Buffer.byteLength(JSON.stringify(json)) : 0);

/** Whether sequence number a ≤ b (decimal strings of any length). */
export const seqAtMost = (a: string, b: string) => BigInt(a) <= BigInt(b);

export const isSegmentEmpty = (s: WindowState) => s.first === undefined;

/** Whether the record at `seq` is already counted (see the module comment). */
export function alreadyCounted(s: WindowState, seq: string): boolean {
  if (s.after !== undefined && seqAtMost(seq, s.after)) return true;
  if (s.last !== undefined && seqAtMost(seq, s.last)) return true;
  return s.skip.some((r) => seqAtMost(r.first, seq) && seqAtMost(seq, r.last));
}

/** Fold the records not yet counted into the segment (stream order). */
export function addRecords(s: WindowState, records: readonly DynamoDBRecord[], opts: PlanOptions): void {
  for (const record of records) {
    const seq = record.dynamodb?.SequenceNumber;
    if (seq === undefined || alreadyCounted(s, seq)) continue;
    s.first ??= seq;
    s.last = seq;
    const activity = activityOf(record);
    if (activity) addActivity(s.agg, activity, opts);
  }
}
