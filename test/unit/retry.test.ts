/** The one retry loop (functions/platform/retry.ts): bounded, full-jitter backoff, its timing injected. */
import { afterEach, describe, expect, it } from 'vitest';
import { AGAIN, backoffMs, RETRY, RetriesExhaustedError, retrying, retryingErrors, setRetryTiming } from '../../functions/platform/retry.js';

let restore: (() => void) | undefined;
afterEach(() => restore?.());

function recordWaits(draws: number[]): number[] {
  const waits: number[] = [];
  let i = 0;
  restore = setRetryTiming({ sleep: async (ms) => void waits.push(ms), random: () => draws[i++ % draws.length]! });
  return waits;
}

describe('retrying', () => {
  it('returns the first result that is not AGAIN, waiting a full-jitter backoff between attempts', async () => {
    const waits = recordWaits([0.25, 0.999, 0]);
    let calls = 0;
    const out = await retrying('x', { attempts: 5, baseMs: 10, capMs: 50 }, async (attempt) => {
      calls += 1;
      expect(attempt).toBe(calls);
      return attempt < 4 ? AGAIN : 'ok';
    });
    expect(out).toBe('ok');
    // Waits before attempts 2, 3 and 4: r · min(cap, base · 2^attempt).
    expect(waits).toEqual([0.25 * 20, 0.999 * 40, 0]);
  });

  it('gives up after its attempts with RetriesExhaustedError naming what lost', async () => {
    const waits = recordWaits([1]);
    let calls = 0;
    const error = await retrying('follow a → b', RETRY.request, async () => {
      calls += 1;
      return AGAIN;
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect((error as RetriesExhaustedError).what).toBe('follow a → b');
    expect((error as RetriesExhaustedError).attempts).toBe(RETRY.request.attempts);
    expect(calls).toBe(RETRY.request.attempts);
    expect(waits).toHaveLength(RETRY.request.attempts - 1);
    expect(Math.max(...waits)).toBeLessThanOrEqual(RETRY.request.capMs);
  });

  it('rethrows what the step throws at once (only AGAIN is retried)', async () => {
    const waits = recordWaits([0.5]);
    let calls = 0;
    await expect(
      retrying('x', RETRY.request, async () => {
        calls += 1;
        throw new Error('a bug, not a race');
      }),
    ).rejects.toThrow('a bug, not a race');
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it('retryingErrors retries the errors it is told to, and keeps the last as the cause', async () => {
    recordWaits([0]);
    const busy = Object.assign(new Error('busy'), { name: 'Busy' });
    const error = await retryingErrors(
      'x',
      { attempts: 3, baseMs: 1, capMs: 1 },
      (e) => (e as Error).name === 'Busy',
      async () => {
        throw busy;
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect((error as Error).cause).toBe(busy);
    let n = 0;
    expect(
      await retryingErrors(
        'x',
        RETRY.request,
        () => true,
        async () => (++n < 3 ? Promise.reject(busy) : n),
      ),
    ).toBe(3);
  });

  it('every policy is bounded and its waits stay under the cap', () => {
    for (const policy of Object.values(RETRY)) {
      expect(policy.attempts).toBeGreaterThan(1);
      expect(policy.attempts).toBeLessThanOrEqual(20);
      for (let a = 1; a < policy.attempts; a++) expect(backoffMs(policy, a, 0.9999)).toBeLessThan(policy.capMs + 1e-9);
    }
  });
});
