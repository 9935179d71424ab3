/** What the workload scenario's phases share: the run (stack, workload, user ids, a progress line) and small helpers. */
import type { BenchContext } from '../context.js';
import { round } from '../stats.js';
import type { Workload } from './graph.js';

/** A size the environment may change for a longer or shorter run (docs/workload.md). */
export const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** The scenario column of every workload figure. */
export const S = 'workload';

export interface WorkloadRun {
  readonly ctx: BenchContext;
  readonly w: Workload;
  /** The user id of user index `u` in this run. */
  idOf(u: number): string;
  /** The ids of u's followers. */
  followerIds(u: number): string[];
  /** A progress line. */
  say(text: string): void;
}

export const cpuNote = (c: { node: number; jvm: number }) => `CPU: this process ${round(c.node, 2)} cores, DynamoDB Local ${round(c.jvm, 2)} cores`;

/** How a phase waits for its last job (copies.ts waitForCopies): polled every 50 ms (thousands of jobs move), 10 minutes at most. */
export const DRAIN = { pollMs: 50, timeoutMs: 600_000 };
