/**
 * When a home-feed read asks for its reader's stamp (services/reader-activity/ask.ts), on an injected
 * clock: a reader who reads within the window keeps a bound that has not passed, whatever the
 * window's length (issue 39 item 4: with a 15 s window and a per-instance throttle of a minute, a
 * reader who read every 3 s lost their copies). The queue is replaced by a list; the stamp job is
 * played by raising the head's bound to the job's `until` a second after it was asked, or after its
 * delay (a restamp, spread over STAMP_SPREAD: at most an eighth of the window).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { firstAskOpen } from '../../functions/model/reader-activity.js';

const queued = vi.hoisted(() => [] as { kind: string; reader: string; until?: string; since?: string; delay: number }[]);
vi.mock('../../functions/services/jobs/bus.js', () => ({
  enqueueJob: async (job: { kind: string; reader: string; until?: string }, delaySeconds = 0) => {
    queued.push({ ...job, delay: delaySeconds });
  },
}));

const SECOND = 1_000_000_000n;
const START = 1_800_000_000n * SECOND;

let askStampIfDue: (reader: string, headUntil: bigint | undefined, nowTicks: bigint) => Promise<void>;
const WINDOW = 15n * SECOND;

/** The first instant from `from` on (ms steps) at which a never-stamped `reader` may ask (their turn). */
function inTurn(reader: string, from: bigint): bigint {
  for (let t = from; ; t += 1_000_000n) if (firstAskOpen(reader, Number(t / 1_000_000n), 900_000, WINDOW)) return t;
}

beforeAll(async () => {
  process.env.FANOUT_ACTIVE_WINDOW = '15s';
  process.env.STAMP_SPREAD = '15m';
  askStampIfDue = (await import('../../functions/services/reader-activity/ask.js')).askStampIfDue;
});

/**
 * `reader`, stamped at START, reads every `everySeconds` for `forSeconds` (one function instance serves every read);
 * each stamp job asked lands a second later. Returns the reads that found the bound passed and the
 * jobs asked.
 */
async function readEvery(reader: string, everySeconds: bigint, forSeconds: bigint): Promise<{ passedAt: bigint[]; jobs: number }> {
  let head: bigint | undefined = START + WINDOW; // stamped at START (a never-stamped reader waits for their turn)
  let pending: { at: bigint; until: bigint } | undefined;
  const passedAt: bigint[] = [];
  const before = queued.length;
  for (let t = 0n; t <= forSeconds; t += everySeconds) {
    const now = START + t * SECOND;
    if (pending && pending.at <= now) {
      head = head === undefined || pending.until > head ? pending.until : head; // the job only raises
      pending = undefined;
    }
    if (head !== undefined && head < now) passedAt.push(t);
    const asked = queued.length;
    await askStampIfDue(reader, head, now);
    if (queued.length > asked) pending = { at: now + (1n + BigInt(queued.at(-1)!.delay)) * SECOND, until: BigInt(queued.at(-1)!.until!) };
  }
  return { passedAt, jobs: queued.length - before };
}

describe('asking for a stamp with a 15 s window', () => {
  it('keeps a reader who reads every 3 s active: their bound never passes', async () => {
    const { passedAt, jobs } = await readEvery('every-3s', 3n, 300n);
    expect(passedAt).toEqual([]);
    // Still a throttle: a stamp at most every quarter window or so, not one per read (101 reads).
    expect(jobs).toBeGreaterThan(1);
    expect(jobs).toBeLessThanOrEqual(Number(300n / 3n) / 2);
  });

  it('asks once for a reader paging through their feed, while the stamp is under way', async () => {
    const now = inTurn('pager', START + 1_000n * SECOND);
    const before = queued.length;
    for (let page = 0; page < 5; page++) await askStampIfDue('pager', undefined, now + BigInt(page) * 100_000_000n);
    expect(queued.length - before).toBe(1);
  });
});

describe('a never-stamped reader', () => {
  it('asks only in their turn: outside it no job, inside it a restamp', async () => {
    const turn = inTurn('newcomer', START + 2_000n * SECOND);
    let outside = turn - 1_000_000n;
    while (firstAskOpen('newcomer', Number(outside / 1_000_000n), 900_000, WINDOW)) outside -= 1_000_000n;
    const before = queued.length;
    await askStampIfDue('newcomer', undefined, outside);
    expect(queued.length).toBe(before);
    await askStampIfDue('newcomer', undefined, turn);
    expect(queued.slice(before)).toMatchObject([{ kind: 'restamp', reader: 'newcomer' }]);
  });

  it('of a cohort reading at one instant, about an eighth ask', async () => {
    const now = START + 3_000n * SECOND;
    const readers = Array.from({ length: 400 }, (_, i) => `cohort-${i}`);
    const before = queued.length;
    for (const r of readers) await askStampIfDue(r, undefined, now);
    expect(queued.length - before).toBeGreaterThan(400 / 16);
    expect(queued.length - before).toBeLessThan(400 / 5);
  });
});

describe('which job a read asks for', () => {
  it('with nothing missing, a restamp spread over time (background); once the bound passed, a stamp at once (followup)', async () => {
    const now = START + 5_000n * SECOND;
    const readers = Array.from({ length: 40 }, (_, i) => `first-${i}`);
    const before = queued.length;
    for (const r of readers) await askStampIfDue(r, now + 5n * SECOND, now); // less than half the window left: nothing missing
    const first = queued.slice(before);
    expect(first.map((j) => j.kind)).toEqual(readers.map(() => 'restamp'));
    expect(first.every((j) => j.since === undefined && j.delay >= 0 && j.delay <= 1)).toBe(true); // 15 s window: ≤ 1.875 s
    expect(new Set(first.map((j) => j.delay)).size).toBe(2); // spread, not one instant

    const passed = now - SECOND;
    await askStampIfDue('returning', passed, now);
    expect(queued.at(-1)).toMatchObject({ kind: 'stamp', reader: 'returning', since: String(passed), delay: 0 });
  });
});
