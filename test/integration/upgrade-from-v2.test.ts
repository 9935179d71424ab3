/**
 * An upgrade from the release of 2026-11-23 (data model v2, commit 91d8fe2): `npm start`'s stack
 * opened on a data directory that release wrote through its own API (test/fixtures/data-v2/: the
 * driver that wrote it, and every answer that release gave afterwards, are beside it). The stack
 * copies the directory aside, migrates it and serves it: every answer recorded there reads the same
 * now (modulo the API changes of 0.2.0, CHANGELOG), mutes and blocks placed then still hold, new
 * posts flow, and jobs left queued on the one queue that release had still run.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_VERSION } from '../../local/data-version.js';
import { api } from './../support/api.js';
import { type LaterStack, startLaterStack } from '../support/later-stack.js';
import type { TestStack } from '../support/stack-info.js';
import { eventually } from '../support/wait.js';
import { groupIdOf } from '../../functions/model/notification.js';
import { followEdgeKey } from '../../functions/model/follow-edge.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';

const fixture = join(import.meta.dirname, '..', 'fixtures', 'data-v2');
type Recorded = Record<string, { status: number; body: unknown }>;
const expected = JSON.parse(readFileSync(join(fixture, 'expected.json'), 'utf8')) as Recorded;
const ids = JSON.parse(readFileSync(join(fixture, 'ids.json'), 'utf8')) as Record<string, string>;

/**
 * Jobs as the v2 release queued them on its one queue (`fanout`; its job schema, 91d8fe2
 * functions/services/fanout/jobs.ts; its event ids, 91d8fe2 services/notifications/events.ts):
 * notifications of an addressed post and of a follow, their events without `kind` (that release
 * had none) — work of another lane, left on the queue the lanes kept.
 */
const queuedBeforeUpgrade = (addressed: string) => ({
  fanout: [
    JSON.stringify({
      kind: 'notify',
      recipient: 'frank',
      events: [{ verb: 'invite', object: 'game:7', actor: 'alice', id: `to:${addressed}`, ticks: '1795750000000000000', source: addressed }],
    }),
    JSON.stringify({
      kind: 'notify',
      recipient: 'frank',
      events: [{ verb: 'follow', object: 'frank', actor: 'carol', id: 'follow:carol:1795750000000000001', ticks: '1795750000000000001' }],
    }),
  ],
});

/**
 * The fixture was written on 2026-11-27 (05:22 UTC). The stack runs on the clock of a day and of a
 * month after that (libfaketime: the Node process and DynamoDB Local alike): stream records of its
 * day are trimmed, its 2-day expiries are due, and every answer must still be the same.
 */
const WRITTEN = Date.parse('2026-11-27T05:22:17Z');
const DAY_MS = 86_400_000;
const clocks = [
  { name: 'a day after it was written', at: WRITTEN + DAY_MS },
  { name: 'a month after it was written', at: WRITTEN + 30 * DAY_MS },
];
/** libfaketime's absolute start: `@YYYY-MM-DD hh:mm:ss` (the clock runs on from there). */
const faketimeAt = (ms: number) => `@${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}`;

/** The parts of an answer that are data, not the shape 0.2.0 changed (list cursors, group kinds). */
function dataOf(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(dataOf);
  if (body === null || typeof body !== 'object') return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'lastRangeKey' && !('rangeKey' in body)) continue; // lists answered lastRangeKey in v2, `next` now
    if (k === 'next' || k === 'kind') continue;
    if (k === 'activityWindow') continue; // the export's window ends now: it moves with the clock
    if (k === 'tags' && v === null && 'rangeKey' in body) continue; // activities carry their tags since 0.2.0 (none here)
    if (k === 'version' && v === 1 && 'rangeKey' in body) continue; // and their version since 0.2.0 (never edited here)
    if (k === 'editedAt' && v === null && 'rangeKey' in body) continue;
    if (k === 'followedTags' && Array.isArray(v) && v.length === 0) continue; // the export's followed tags, new in 0.2.0
    out[k] = dataOf(v);
  }
  // An addressed post's group has an id of its own now (a `to` group never shares one).
  if ((body as { kind?: string }).kind === 'to' || isAddressedGroup(body)) delete out.id;
  return out;
}
const isAddressedGroup = (g: object) => 'activityCount' in g && (g as { verb?: string }).verb === 'invite';

/** Answers that depend on the clock at read time (a window ending now), compared by shape only. */
const clockRelative = (key: string) => key.includes('/activity?window=');

/** The backfill a follow or an unmute owes `follower` is done: the edge's `backfillPending` is gone. */
async function backfillDone(follower: string, followee: string, on: TestStack): Promise<void> {
  const pending = async () =>
    (await on.doc.send(new GetCommand({ TableName: on.tableNames.graph, Key: followEdgeKey(follower, followee), ConsistentRead: true }))).Item?.backfillPending;
  await eventually(async () => (await pending()) === undefined, { what: `${follower}'s backfill of ${followee} done` });
}

describe.each(clocks)('npm start on a data directory of the release of 2026-11-23 (data model v2), $name', ({ at }) => {
  let root: string;
  let dataDir: string;
  let stack: LaterStack;
  let on: TestStack;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'tickfeed-upgrade-'));
    dataDir = join(root, '.tickfeed');
    cpSync(join(fixture, 'data'), dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'queued-messages.json'), JSON.stringify(queuedBeforeUpgrade(ids.aliceInvite!)));
    // The tokens that release minted verify here: the stack keeps the fixture's keys.
    stack = await startLaterStack({
      dataDir,
      clock: faketimeAt(at),
      // The fixture's data ages: read it as of the day it was written (no TTL filter), with its rollup.
      env: { FEED_TTL: 'off', NOTIFICATIONS_TTL: 'off', ROLLUP_TTL: 'off', TIMELINE_TTL: 'off', ROLLUPS: 'game_finished:max(high_score)' },
    });
    on = stack;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('copied the directory aside, migrated it, and said so in one line', () => {
    expect(stack.lines.filter((l) => l.includes('held data model v2'))).toHaveLength(1);
    const backup = `${dataDir}.v2-backup`;
    expect(existsSync(join(backup, 'dynamodb', 'shared-local-instance.db'))).toBe(true);
    expect(readFileSync(join(backup, 'DATA_VERSION'), 'utf8').trim()).toBe('2');
    expect(readFileSync(join(dataDir, 'DATA_VERSION'), 'utf8').trim()).toBe(DATA_VERSION);
  });

  it('keeps the data model with the data: the version item says v3', async () => {
    const { Item } = await on.doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: { pk: 'meta#data-model', sk: 'version' } }));
    expect(String(Item?.version)).toBe(DATA_VERSION);
  });

  it('answers every read that release answered with the same data', async () => {
    const mismatches: string[] = [];
    for (const [key, recorded] of Object.entries(expected)) {
      const [method, path, user] = key.split(' ') as [string, string, string];
      const res = await api(method, path, user === 'admin' ? { on, as: 'backend', scope: 'tickfeed/admin' } : { on, as: user });
      if (res.status !== recorded.status) mismatches.push(`${key}: ${res.status}, was ${recorded.status}`);
      else if (clockRelative(key)) continue;
      else if (JSON.stringify(dataOf(res.body)) !== JSON.stringify(dataOf(recorded.body))) {
        mismatches.push(`${key}:\n  now ${JSON.stringify(dataOf(res.body))}\n  was ${JSON.stringify(dataOf(recorded.body))}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("moves an addressed post's notifications into `to` groups of their own (v2 grouped them by the post's verb)", async () => {
    for (const target of ['carol', 'dave']) {
      const items = (await api('GET', '/notifications', { on, as: target })).body.items as {
        id: string;
        kind: string;
        verb: string;
        object: string;
        updatedAt: string;
      }[];
      const invite = items.find((g) => g.verb === 'invite');
      expect(invite?.kind, target).toBe('to');
      expect(invite?.id).toBe(groupIdOf('invite', 'game:42', invite!.updatedAt.slice(0, 10), 'to'));
    }
  });

  it('keeps the mutes and blocks placed before the upgrade', async () => {
    // erin blocked bob: he can neither follow her nor read her timeline.
    expect((await api('PUT', '/following/erin', { on, as: 'bob' })).status).toBe(403);
    expect((await api('GET', '/users/erin/activities', { on, as: 'bob' })).status).toBe(404);
    // alice muted dave: a new mention of her by him notifies no one.
    const before = (await api('GET', '/notifications/counts', { on, as: 'alice' })).body;
    const mention = await api('POST', '/activities', { on, as: 'dave', json: { verb: 'status', content: 'hey @alice, again' } });
    expect(mention.status).toBe(201);
    // dave muted carol (whom he follows): her new post reaches bob's…, not dave's feed. bob follows
    // her first and his backfill is done before she posts: only the post's fan-out can bring it to
    // him (a backfill running after the post would hide a fan-out that never ran, issue 39).
    await api('PUT', '/following/carol', { on, as: 'bob' });
    await backfillDone('bob', 'carol', on);
    const post = await api('POST', '/activities', { on, as: 'carol', json: { verb: 'status', content: 'after the upgrade' } });
    expect(post.status).toBe(201);
    await eventually(async () => (await api('GET', '/feed', { on, as: 'bob' })).body.items.some((i: { id: string }) => i.id === post.body.id), {
      what: "carol's post in bob's feed",
    });
    const daveFeed = (await api('GET', '/feed', { on, as: 'dave' })).body.items as { id: string }[];
    expect(daveFeed.map((i) => i.id)).not.toContain(post.body.id);
    expect((await api('GET', '/notifications/counts', { on, as: 'alice' })).body).toEqual(before);
  });

  it('lifts a mute placed before the upgrade (the check entry the migration wrote goes with it)', async () => {
    expect((await api('DELETE', '/mutes/carol', { on, as: 'dave' })).status).toBe(204);
    expect((await api('GET', '/mutes', { on, as: 'dave' })).body.items).toEqual([]);
    // The backfill the unmute owes is done before she posts: the post reaches dave by its fan-out or
    // not at all. (Posted before the backfill ran, it came by the backfill: the test passed on a
    // stack whose outbox had stopped, and failed when the backfill ran first — issue 39 item 3.)
    await backfillDone('dave', 'carol', on);
    const post = await api('POST', '/activities', { on, as: 'carol', json: { verb: 'status', content: 'dave sees this one' } });
    await eventually(async () => (await api('GET', '/feed', { on, as: 'dave' })).body.items.some((i: { id: string }) => i.id === post.body.id), {
      what: "carol's post in dave's feed after the unmute",
    });
  });

  it('runs the jobs left on the queue of the release before the lanes, each in the group of its kind', async () => {
    const groups = async () =>
      (await api('GET', '/notifications', { on, as: 'frank' })).body.items as { kind: string; verb: string; object: string; actors: string[] }[];
    await eventually(async () => (await groups()).some((g) => g.kind === 'to' && g.verb === 'invite' && g.object === 'game:7'), {
      what: "the queued addressed post's notification in a `to` group of frank's",
    });
    await eventually(async () => (await groups()).some((g) => g.kind === 'follow' && g.actors.includes('carol')), {
      what: "the queued follow's notification in frank's follow group",
    });
  });
});
