/**
 * Every home feed against the reference model (issue 40): fast-check generates histories of user
 * commands (post, edit, delete, follow, tag follows, mute, block, read, idle, erase) and delivery
 * commands (deliver pending job i, redeliver a finished one, crash a job at its k-th DynamoDB call
 * before or after it is sent, a throttle or UnprocessedItems on its next write, stale reads at a lag),
 * runs them on the real services against DynamoDB Local with the pollers off
 * (test/support/model-sim/), and applies the user commands to the model (home-feed-model.ts).
 * During a run: safety only. After a final fault-free drain: every page and stored feed equals the
 * model. Failing seeds and paths go to seeds.json and are replayed first; each run of the file
 * explores for MODEL_SECONDS (default 60); `npm run soak -- model --minutes N` explores longer.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopOwnStack } from '../support/own-stack.js';
import { type Cmd, startModelStack, TAGS, USERS, World } from '../support/model-sim/world.js';

const SEEDS = new URL('./seeds.json', import.meta.url);
const SECONDS = Number(process.env.MODEL_SECONDS ?? 60);
const MAX_COMMANDS = Number(process.env.MODEL_MAX_COMMANDS ?? 40);

interface Saved {
  seed: number;
  path: string;
  replayPath?: string;
  found: string;
}
const saved = (): Saved[] => JSON.parse(readFileSync(SEEDS, 'utf8')) as Saved[];

class ModelCommand implements fc.AsyncCommand<World, World> {
  constructor(readonly cmd: Cmd) {}
  check = (w: Readonly<World>) => w.allowed(this.cmd);
  run = async (_m: World, w: World) => w.run(this.cmd);
  toString = () => JSON.stringify(this.cmd);
}

const user = fc.integer({ min: 0, max: USERS - 1 });
const pair = fc.tuple(user, user).filter(([r, a]) => r !== a);
const tag = fc.integer({ min: 0, max: TAGS - 1 });
const tags = fc.subarray(Array.from({ length: TAGS }, (_, i) => i));
const post = fc.nat({ max: 30 });
const job = fc.nat({ max: 30 });
const fault = fc.oneof(
  fc.record({ crash: fc.integer({ min: 1, max: 8 }), when: fc.constantFrom('before' as const, 'after' as const) }),
  fc.record({ write: fc.constantFrom('throttle' as const, 'unprocessed' as const, ...(process.env.MODEL_CCF ? ['ccf' as const] : [])) }),
);
const cmd = (a: fc.Arbitrary<Cmd>) => a.map((c) => new ModelCommand(c));
const twoWay = (c: 'follow' | 'unfollow' | 'mute' | 'unmute' | 'block' | 'unblock') => pair.map(([r, a]): Cmd => ({ c, r, a }));

const commands = [
  { weight: 4, arbitrary: cmd(fc.record({ u: user, tags }).map(({ u, tags: t }): Cmd => ({ c: 'post', u, tags: t }))) },
  { weight: 1, arbitrary: cmd(fc.record({ p: post, tags }).map(({ p, tags: t }): Cmd => ({ c: 'edit', p, tags: t }))) },
  { weight: 1, arbitrary: cmd(post.map((p): Cmd => ({ c: 'delete', p }))) },
  { weight: 3, arbitrary: cmd(twoWay('follow')) },
  { weight: 1, arbitrary: cmd(twoWay('unfollow')) },
  { weight: 3, arbitrary: cmd(fc.record({ r: user, t: tag }).map(({ r, t }): Cmd => ({ c: 'followTag', r, t }))) },
  { weight: 1, arbitrary: cmd(fc.record({ r: user, t: tag }).map(({ r, t }): Cmd => ({ c: 'unfollowTag', r, t }))) },
  { weight: 1, arbitrary: cmd(fc.oneof(twoWay('mute'), twoWay('unmute'), twoWay('block'), twoWay('unblock'))) },
  { weight: 2, arbitrary: cmd(user.map((r): Cmd => ({ c: 'read', r }))) },
  { weight: 1, arbitrary: cmd(user.map((r): Cmd => ({ c: 'idle', r }))) },
  { weight: 1, arbitrary: cmd(user.map((r): Cmd => ({ c: 'erase', r }))) },
  { weight: 8, arbitrary: cmd(job.map((i): Cmd => ({ c: 'deliver', i }))) },
  { weight: 2, arbitrary: cmd(fc.record({ i: job, fault }).map(({ i, fault: f }): Cmd => ({ c: 'deliver', i, fault: f }))) },
  { weight: 1, arbitrary: cmd(job.map((i): Cmd => ({ c: 'redeliver', i }))) },
  { weight: 1, arbitrary: cmd(fc.constantFrom(0, 3, 10, 30).map((n): Cmd => ({ c: 'lag', n }))) },
  { weight: 1, arbitrary: cmd(fc.constantFrom<Cmd>({ c: 'mark' }, { c: 'asOfMark' })) },
];
// The erase is rare (it ends a user for the rest of the run): weight 1 among 32, at most once or twice a run.

/** The failing run's commands, as its world logged them (the last failure seen is the most shrunk). */
let lastFailure: { log: string[]; error: string } | undefined;

const property = (replayPath?: string) =>
  fc.asyncProperty(
    fc.commands(
      commands.flatMap((c) => Array<typeof c.arbitrary>(c.weight).fill(c.arbitrary)),
      { maxCommands: MAX_COMMANDS, ...(replayPath ? { replayPath } : {}) },
    ),
    (cmds) => {
      const run = (async () => {
        const world = await World.start();
        try {
          await fc.asyncModelRun(() => ({ model: world, real: world }), cmds);
          await world.checkFinal();
        } catch (error) {
          lastFailure = { log: [...world.log], error: (error as Error).message };
          throw error;
        }
      })();
      inFlight = run.catch(() => undefined);
      return run;
    },
  );

/**
 * The history running now. fast-check's time limit abandons a run in progress rather than waiting
 * for it; the next test must not start beside it (one stack, one job tap, one simulation), so the
 * exploring test waits for it to end.
 */
let inFlight: Promise<unknown> | undefined;

/** Runs `list` as one history, then the final check. */
async function replay(list: Cmd[]): Promise<void> {
  const world = await World.start();
  for (const c of list) if (world.allowed(c)) await world.run(c);
  await world.checkFinal();
}

function report(details: { seed: number; counterexamplePath: string | null }): string {
  return [
    `seed ${details.seed}, path ${details.counterexamplePath}`,
    `shrunk history (${lastFailure?.log.length} commands):`,
    ...(lastFailure?.log ?? []).map((l) => `  ${l},`),
    `error: ${lastFailure?.error}`,
  ].join('\n');
}

/** The seed `npm test` explores from (see the exploring test). */
const EXPLORE_SEED = 40_2026_11;

describe('home feeds against the reference model (issue 40)', () => {
  beforeAll(startModelStack, 120_000);
  afterAll(stopOwnStack);

  it('replays every saved counterexample first', async () => {
    for (const s of saved()) {
      const details = await fc.check(property(s.replayPath), { seed: s.seed, path: s.path, endOnFailure: true });
      expect(details.failed, details.failed ? report(details) : '').toBe(false);
    }
  }, 600_000);

  it(
    `explores histories for ${SECONDS} s`,
    async () => {
      // `npm test` explores from a fixed seed, so a red run is never chance: the same histories, as
      // far as the time allows. The soak (MODEL_RANDOM) explores from a fresh seed each time.
      const seed = process.env.MODEL_RANDOM ? undefined : EXPLORE_SEED;
      const details = await fc.check(property(), { seed, numRuns: 100_000, interruptAfterTimeLimit: SECONDS * 1000, markInterruptAsFailure: false });
      await inFlight;
      console.log(`model test: ${details.numRuns} histories run, ${details.numShrinks} shrinks, seed ${details.seed}`);
      if (details.failed) {
        const replayPath = /replayPath="([^"]*)"/.exec(String(details.counterexample?.[0]))?.[1];
        const entry: Saved = { seed: details.seed, path: details.counterexamplePath!, ...(replayPath ? { replayPath } : {}), found: new Date().toISOString() };
        writeFileSync(SEEDS, `${JSON.stringify([...saved(), entry], null, 2)}\n`);
      }
      expect(details.failed, details.failed ? report(details) : '').toBe(false);
    },
    SECONDS * 1000 + 600_000,
  );

  // The simulation itself: a read not strongly consistent is served stale (last stop's shadow served
  // none, silently, and every stale-read case then passed for nothing).
  it('the shadow serves stale reads: an older image, and an item deleted since', async () => {
    const world = await World.start();
    expect(await world.shadowSelfCheck()).toEqual({ stale: '1', fresh: '2', deletedSince: ['2'] });
  });

  // The bug a85f5fe fixed, which only a stale read shows: a returning reader's stamp raised their
  // bound and wrote back what was posted so far; a post made just after had its fan-out page read the
  // follower entry at the bound before the stamp (a read not strongly consistent), skipped the
  // reader, and their head no longer asked for a merge: the post was lost. Passes since a85f5fe
  // (follower pages that write copies read strongly consistent); fails without.
  it(
    'a fan-out page that reads a stale activity bound skips no post (a85f5fe)',
    () =>
      replay([
        { c: 'follow', r: 1, a: 0 },
        { c: 'drain' },
        { c: 'idle', r: 1 },
        { c: 'read', r: 1 },
        { c: 'mark' }, // u1's bound has passed: the stamp the read queued has not run
        { c: 'drain' }, // the stamp raises the bound and writes back what is posted so far (nothing)
        { c: 'post', u: 0, tags: [] },
        { c: 'asOfMark' }, // a read not strongly consistent may still see the passed bound
        { c: 'deliver', i: 0 },
      ]),
    60_000,
  );

  // The same for a push-followed tag: its follower entry carries the bound a tag fan-out page reads.
  it(
    'a tag fan-out page that reads a stale activity bound skips no post',
    () =>
      replay([
        { c: 'followTag', r: 1, t: 0 },
        { c: 'drain' },
        { c: 'idle', r: 1 },
        { c: 'read', r: 1 },
        { c: 'mark' },
        { c: 'drain' }, // the stamp
        { c: 'post', u: 0, tags: [0] },
        { c: 'asOfMark' },
        { c: 'deliver', i: 0 }, // the post's jobs (fan-out, tag fan-out)
        { c: 'deliver', i: 0 },
      ]),
    60_000,
  );

  // Found by CI's exploration (seed 40202611) when follower pages read eventually consistent: a
  // fan-out page that missed a follow made just before the post (its backfill had run) lost the post.
  it(
    'a fan-out page that reads the followers a moment stale still sees a follow made before the post',
    () => replay([{ c: 'follow', r: 1, a: 0 }, { c: 'post', u: 0, tags: [0] }, { c: 'asOfMark' }, { c: 'deliver', i: 20 }]),
    60_000,
  );

  it(
    'a tag fan-out page that reads the tag followers a moment stale still sees a tag follow made before the post',
    () =>
      replay([
        { c: 'mark' },
        { c: 'followTag', r: 1, t: 0 },
        { c: 'post', u: 0, tags: [0] },
        { c: 'asOfMark' },
        { c: 'deliver', i: 0 },
        { c: 'deliver', i: 0 },
      ]),
    60_000,
  );

  // The divergences the issue saw by hand (u0 alice, u1 bob, u2 carol; tag 0 #x), as command lists.
  // The three divergences issue 40 saw (each failed on 4052106; fixed by the copy rule, ab00eb6).
  it(
    'bob unfollows alice: her #x post stays, the tag he follows brings it',
    () => replay([{ c: 'followTag', r: 1, t: 0 }, { c: 'follow', r: 1, a: 0 }, { c: 'post', u: 0, tags: [0] }, { c: 'drain' }, { c: 'unfollow', r: 1, a: 0 }]),
    60_000,
  );

  it(
    'carol mutes alice: the #x post the tag brought leaves her stored feed',
    () => replay([{ c: 'followTag', r: 2, t: 0 }, { c: 'post', u: 0, tags: [0] }, { c: 'drain' }, { c: 'mute', r: 2, a: 0 }]),
    60_000,
  );

  it(
    'carol blocks alice: the #x post the tag brought leaves her stored feed',
    () => replay([{ c: 'followTag', r: 2, t: 0 }, { c: 'post', u: 0, tags: [0] }, { c: 'drain' }, { c: 'block', r: 2, a: 0 }]),
    60_000,
  );

  // Issue 40 gap (d): a mute, or a block, kept a followed tag's post out; lifting it must bring the
  // post back as the tag's push road would have (D5), whether or not the reader follows the author.
  it(
    'carol unmutes alice: the #x post made while the mute stood comes back',
    () => replay([{ c: 'followTag', r: 2, t: 0 }, { c: 'mute', r: 2, a: 0 }, { c: 'post', u: 0, tags: [0] }, { c: 'drain' }, { c: 'unmute', r: 2, a: 0 }]),
    60_000,
  );

  it(
    'carol unblocks alice: the #x posts the block took out and kept out come back',
    () =>
      replay([
        { c: 'followTag', r: 2, t: 0 },
        { c: 'post', u: 0, tags: [0] },
        { c: 'drain' },
        { c: 'block', r: 2, a: 0 },
        { c: 'post', u: 0, tags: [0] },
        { c: 'drain' },
        { c: 'unblock', r: 2, a: 0 },
      ]),
    60_000,
  );

  it(
    'bob unmutes alice, whom he follows while she is pulled: her #x post his push tag follow brings comes back',
    () =>
      replay([
        { c: 'followTag', r: 1, t: 0 },
        { c: 'follow', r: 1, a: 0 },
        { c: 'follow', r: 2, a: 0 },
        { c: 'mute', r: 1, a: 0 },
        { c: 'post', u: 0, tags: [0] },
        { c: 'drain' },
        { c: 'unmute', r: 1, a: 0 },
      ]),
    60_000,
  );

  // A lifted mute read a moment stale: the restore wrote the post back, then its re-check (or a
  // remover's) still saw the mute and took the copy for good. Removers read the controls strongly
  // consistent; the restore runs again CONTROL_SETTLE later.
  it(
    'carol unmutes alice and a stale read still shows the mute: the #x post comes back all the same',
    () =>
      replay([
        { c: 'followTag', r: 2, t: 0 },
        { c: 'post', u: 0, tags: [0] },
        { c: 'mute', r: 2, a: 0 },
        { c: 'drain' },
        { c: 'mark' },
        { c: 'unmute', r: 2, a: 0 },
        { c: 'asOfMark' },
        { c: 'deliver', i: 0 },
        { c: 'post', u: 0, tags: [0] },
        { c: 'deliver', i: 0 },
        { c: 'deliver', i: 0 },
        { c: 'deliver', i: 0 },
        { c: 'deliver', i: 0 },
      ]),
    60_000,
  );

  // Found by the 30-minute soak (seed -1067823418): bob blocks alice, then follows her. The follow's
  // backfill (and every later fan-out) copied the posts the block hides. A follow is now refused
  // while a block stands either way (D6).
  it(
    'bob blocks alice, then tries to follow her: refused, and her post stays out',
    () =>
      replay([
        { c: 'block', r: 1, a: 0 },
        { c: 'post', u: 0, tags: [] },
        { c: 'follow', r: 1, a: 0 },
      ]),
    60_000,
  );
});
