/**
 * The one retry loop. Whatever lost a race (a conditional transaction, a conflict, a throttled or
 * partly processed batch) is retried here: bounded attempts, full-jitter exponential backoff
 * (a random wait in [0, min(cap, base · 2^attempt))), then `RetriesExhaustedError` — which the
 * HTTP edge answers with a 503 problem+json and `Retry-After` (functions/http/problem.ts), and
 * which in a worker fails the record so SQS or the stream brings it back.
 *
 * The wait and the random draw are injectable (`setRetryTiming`), so tests exhaust retries
 * without sleeping and assert the exact waits.
 *
 * @example
 *   await retrying('follow a → b', RETRY.request, async () => ((await tx()) === 'done' ? 'ok' : AGAIN));
 */
import { sleep } from './pool.js';

export interface RetryPolicy {
  /** Attempts, the first included. */
  readonly attempts: number;
  readonly baseMs: number;
  readonly capMs: number;
}

/** The policies in use, by what waits: a caller on an HTTP request, a job, a batch call's leftovers. */
export const RETRY = {
  /** A request's transaction that lost a race: 8 attempts, at most ~1.3 s of waits in all. */
  request: { attempts: 8, baseMs: 10, capMs: 500 },
  /** Many callers changing one activity's counter (reactions, comments). */
  counter: { attempts: 12, baseMs: 10, capMs: 500 },
  /** A job folding many events into one hot item: more patience, SQS redelivers past it. */
  job: { attempts: 20, baseMs: 10, capMs: 1000 },
  /** A worker's read-modify-write of one item that may be moving (notification groups). */
  step: { attempts: 8, baseMs: 10, capMs: 200 },
  /** BatchWriteItem/BatchGetItem leftovers and throttling. */
  batch: { attempts: 8, baseMs: 25, capMs: 2000 },
  /** A rate bucket's conditional writes: a failed one returns the bucket as it stands, so the next needs no wait. */
  lease: { attempts: 4, baseMs: 0, capMs: 0 },
  /** A post racing another with the same foreignId: only until the winner's marker is readable. */
  marker: { attempts: 4, baseMs: 20, capMs: 200 },
} as const satisfies Record<string, RetryPolicy>;

/** Returned by a step to ask for another attempt. */
export const AGAIN: unique symbol = Symbol('retry again');
export type Again = typeof AGAIN;

/** The attempts ran out: contention (or throttling) the caller may retry later. */
export class RetriesExhaustedError extends Error {
  constructor(
    readonly what: string,
    readonly attempts: number,
    /** A sensible wait before a client's retry, in seconds. */
    readonly retryAfterSeconds = 1,
    options?: { cause?: unknown },
  ) {
    super(`${what}: gave up after ${attempts} attempts`, options);
    this.name = 'RetriesExhaustedError';
  }
}

export interface RetryTiming {
  sleep(ms: number): Promise<unknown>;
  /** In [0, 1). */
  random(): number;
}

const realTiming: RetryTiming = { sleep, random: Math.random };
let timing: RetryTiming = realTiming;

/** Tests: replace the wait and/or the random draw; returns the function that restores them. */
export function setRetryTiming(replace: Partial<RetryTiming>): () => void {
  timing = { ...realTiming, ...replace };
  return () => {
    timing = realTiming;
  };
}

/** The wait before attempt `attempt + 1`, for a draw `r` in [0, 1). */
export const backoffMs = (policy: RetryPolicy, attempt: number, r: number): number => r * Math.min(policy.capMs, policy.baseMs * 2 ** attempt);

/**
 * Run `step` until it returns something other than `AGAIN` (its result) or throws (rethrown at
 * once: only what the step classifies as a lost race is retried); after `policy.attempts` AGAINs,
 * throw RetriesExhaustedError naming `what`. `step` gets the attempt number (1-based).
 */
export async function retrying<T>(what: string, policy: RetryPolicy, step: (attempt: number) => Promise<T | Again>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const out = await step(attempt);
    if (out !== AGAIN) return out;
    if (attempt >= policy.attempts) throw new RetriesExhaustedError(what, attempt);
    await timing.sleep(backoffMs(policy, attempt, timing.random()));
  }
}

/**
 * `retrying`, for a step that signals a lost race by throwing: errors `isRetryable` accepts are
 * retried (the last one becomes the exhausted error's cause), any other is rethrown at once.
 */
export async function retryingErrors<T>(
  what: string,
  policy: RetryPolicy,
  isRetryable: (error: unknown) => boolean,
  step: (attempt: number) => Promise<T>,
): Promise<T> {
  let cause: unknown;
  try {
    return await retrying(what, policy, async (attempt) => {
      try {
        return await step(attempt);
      } catch (error) {
        if (!isRetryable(error)) throw error;
        cause = error;
        return AGAIN;
      }
    });
  } catch (error) {
    if (error instanceof RetriesExhaustedError && error.what === what && cause !== undefined)
      throw new RetriesExhaustedError(what, error.attempts, error.retryAfterSeconds, { cause });
    throw error;
  }
}
