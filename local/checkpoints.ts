/**
 * Where each stream poller stopped, per shard: the last sequence number it handed off for good.
 * Persistent mode keeps it in a JSON file beside DynamoDB Local's data, so a restart of
 * `npm start` resumes exactly there (neither re-counting nor skipping); in-memory mode keeps it
 * in memory, like the data itself.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ShardCheckpoint {
  /** Last sequence number fully handled (success or sent to the on-failure destination). */
  sequenceNumber?: string;
  /** The shard is closed and drained; its children may start. */
  finished?: boolean;
  /**
   * A tumbling window under way (sources with `tumblingWindowSeconds`): kept with the position in
   * one write, so a restart resumes the window where the last successful invocation left it.
   */
  window?: OpenWindow;
}

export interface OpenWindow {
  /** Epoch ms. */
  readonly startMs: number;
  /** What the function returned last (`{}` before the first invocation). */
  state: Record<string, unknown>;
  /** The records delivered into the window so far (what its on-failure record describes). */
  first?: string;
  last?: string;
  count: number;
  /** Epoch seconds (ApproximateCreationDateTime) of the first and last of them. */
  firstArrival?: number;
  lastArrival?: number;
}

export interface CheckpointStore {
  get(streamArn: string, sourceId: string, shardId: string): ShardCheckpoint;
  set(streamArn: string, sourceId: string, shardId: string, value: ShardCheckpoint): void;
}

type Data = Record<string, ShardCheckpoint>;
const keyOf = (streamArn: string, sourceId: string, shardId: string) => `${streamArn}|${sourceId}|${shardId}`;

export function memoryCheckpoints(): CheckpointStore {
  const data: Data = {};
  return {
    get: (a, s, h) => data[keyOf(a, s, h)] ?? {},
    set: (a, s, h, v) => void (data[keyOf(a, s, h)] = v),
  };
}

export function fileCheckpoints(file: string): CheckpointStore {
  const data: Data = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Data) : {};
  mkdirSync(dirname(file), { recursive: true });
  return {
    get: (a, s, h) => data[keyOf(a, s, h)] ?? {},
    set(a, s, h, v) {
      data[keyOf(a, s, h)] = v;
      // write-then-rename: a crash leaves the old file or the new one, never half of one
      writeFileSync(`${file}.tmp`, JSON.stringify(data));
      renameSync(`${file}.tmp`, file);
    },
  };
}
