/**
 * The abuse suite (beside the OpenAPI fuzzer): scripted hostile users against a local stack of its
 * own, with the defaults a deployment has (NOTIFY_STRANGER_LIMIT 20, REACTION_KINDS, RATE_LIMITS …) except a
 * short CONTROL_SETTLE (an erase finishes in seconds), NOTIFICATIONS_MAX_ITEMS 24 (a trim past
 * 30 groups, so a flood that got through would push real notifications out) and a follows bucket
 * of 20 instead of 100 (a churn script meets the same bound after a fifth of the follows, each of
 * which costs a backfill and two cleanups).
 *
 * Each case is a script: it sets up its victims' data, attacks through `hostile` — which records
 * every request with what it must get: `refused` (a 4xx, 429 included) or `contained` (anything
 * but a 5xx: accepted, and harmless) — and then checks every victim's data is as it was. After a
 * case, none of its hostile requests got a 5xx and every `refused` one a 4xx.
 *
 * To add a case: append an AbuseCase to `cases` (its name, then a script using `hostile` for the
 * attacker's requests and `api` for everyone else's).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, parseRateLimits } from '../../lib/defs/rate-limits.js';
import { burstPerInstance } from '../../functions/model/rate-bucket.js';
import { counterKey } from '../../functions/model/reaction.js';
import { api, type ApiResponse, mustPost } from '../support/api.js';
import { uid } from '../support/ids.js';
import { groupsOf, groupsWhen } from '../support/notifications.js';
import { doc, own, settled, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { itemSizeBytes } from '../support/settle.js';
import { eventually } from '../support/wait.js';

/** The deployment's limits but for the follows class (a later pair overrides an earlier one). */
const RATE_LIMITS = `${DEFAULT_RATE_LIMITS},follows=20/10m`;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { CONTROL_SETTLE: '2s', NOTIFICATIONS_MAX_ITEMS: '24', RATE_LIMITS } });
}, 120_000);

afterAll(stopOwnStack);

type Expectation = 'refused' | 'contained';
type Response = ApiResponse;
type Hostile = (expectation: Expectation, method: string, path: string, as: string, json?: unknown) => Promise<Response>;

interface AbuseCase {
  readonly name: string;
  readonly script: (hostile: Hostile) => Promise<void>;
}

interface Logged {
  readonly expectation: Expectation;
  readonly request: string;
  readonly status: number;
}

// ---- helpers shared by the cases ----------------------------------------------------------------

const enc = encodeURIComponent;
/** What a victim's notifications look like, for a before/after comparison (seen/read included). */
const snapshotOf = async (user: string) =>
  (await groupsOf(user, own)).map(({ id, kind, verb, object, actors, actorCount, activityCount, seen }) => ({
    id,
    kind,
    verb,
    object,
    actors,
    actorCount,
    activityCount,
    seen,
  }));

/** A victim with a follower (bob) and a liked post (carol): two real notification groups. */
async function victimWithNotifications() {
  const [alice, bob, carol] = ['alice', 'bob', 'carol'].map(uid) as [string, string, string];
  expect((await api('PUT', `/following/${alice}`, { on: own, as: bob })).status).toBe(204);
  const post = await mustPost(alice, { verb: 'post', content: 'my post' }, own);
  expect((await api('PUT', `/activities/${enc(post.id)}/reactions/like`, { on: own, as: carol })).status).toBe(204);
  await groupsWhen(alice, (g) => g.length === 2, "the victim's follow and like", { on: own, timeoutMs: 60_000 });
  return { alice, bob, carol, post, before: await snapshotOf(alice), counts: (await api('GET', '/notifications/counts', { on: own, as: alice })).body };
}

// ---- the cases ----------------------------------------------------------------------------------

const forgery: AbuseCase = {
  name: 'forgery: `to` posing as follows, likes, mentions and comments, other users’ ids, then deletes to wipe real ones',
  async script(hostile) {
    const v = await victimWithNotifications();
    const mallory = uid('mallory');
    const forged: { id: string }[] = await Promise.all(
      (
        [
          ['follow', v.alice],
          ['like', v.post.id],
          ['mention', v.post.id],
          ['comment', v.post.id],
        ] as const
      ).map(async ([verb, object]) => (await hostile('contained', 'POST', '/activities', mallory, { verb, object, to: [v.alice] })).body),
    );
    await hostile('refused', 'POST', '/activities', mallory, { verb: 'post', actor: v.alice }); // posting as the victim
    await hostile('refused', 'DELETE', `/activities/${enc(v.post.id)}`, mallory);
    await hostile('contained', 'POST', '/notifications/read', mallory, { ids: v.before.map((g) => g.id) }); // marks only her own
    await hostile('contained', 'POST', '/notifications/seen', mallory, { ids: v.before.map((g) => g.id) });
    await hostile('refused', 'DELETE', `/users/${v.alice}`, mallory);
    await groupsWhen(v.alice, (g) => g.length === 2 + forged.length, 'the forged groups, each of its own kind', { on: own, timeoutMs: 60_000 });
    await Promise.all(forged.map((f) => hostile('contained', 'DELETE', `/activities/${enc(f.id)}`, mallory)));
    await groupsWhen(v.alice, (g) => g.length === 2, 'the forged groups to go', { on: own, timeoutMs: 60_000 });
    await settled('the deletes');
    expect(await snapshotOf(v.alice)).toEqual(v.before);
    expect((await api('GET', '/notifications/counts', { on: own, as: v.alice })).body).toEqual(v.counts);
    expect((await api('GET', `/activities/${enc(v.post.id)}`, { on: own, as: v.alice })).body.reactions.counts).toEqual({ like: 1 });
  },
};

const flooding: AbuseCase = {
  name: 'flooding: a stranger addresses and mentions the victim in 16 posts',
  async script(hostile) {
    const v = await victimWithNotifications();
    const [mallory, watcher] = ['mallory', 'watcher'].map(uid) as [string, string];
    expect((await api('PUT', `/following/${mallory}`, { on: own, as: watcher })).status).toBe(204);
    // Each post would start two groups (its `to` and its mention): 32, past NOTIFY_STRANGER_LIMIT's
    // 20 and, with the victim's 2, past the trim at 30 — unbounded, the flood would push hers out.
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        hostile('contained', 'POST', '/activities', mallory, { verb: 'invite', object: `game:${i}`, content: `@${v.alice} come`, to: [v.alice] }),
      ),
    );
    // Her last post reaches the watcher (who follows her): once it has and no job is left, all ran.
    await hostile('contained', 'POST', '/activities', mallory, { verb: 'invite', object: 'game:last', to: [watcher] });
    await groupsWhen(watcher, (g) => g.length === 1, "the watcher's invite", { on: own, timeoutMs: 60_000 });
    await settled('the flood');
    const after = await groupsOf(v.alice, own);
    expect(after.filter((g) => g.actors.includes(mallory)).length).toBeLessThanOrEqual(20); // NOTIFY_STRANGER_LIMIT
    const real = new Set(v.before.map((g) => g.id));
    expect(
      after
        .filter((g) => real.has(g.id))
        .map(({ id, kind, verb, object, actors, actorCount, activityCount }) => ({ id, kind, verb, object, actors, actorCount, activityCount })),
    ).toEqual(v.before.map(({ id, kind, verb, object, actors, actorCount, activityCount }) => ({ id, kind, verb, object, actors, actorCount, activityCount })));
  },
};

const eraseAndComeBack: AbuseCase = {
  name: 'erase and come back: a blocked and muted user erases herself and returns with the same sub',
  async script(hostile) {
    const [alice, frank, mallory] = ['alice', 'frank', 'mallory'].map(uid) as [string, string, string];
    const post = await mustPost(alice, { verb: 'post', content: 'not for mallory' }, own);
    expect((await api('PUT', `/blocks/${mallory}`, { on: own, as: alice })).status).toBe(204);
    expect((await api('PUT', `/mutes/${mallory}`, { on: own, as: frank })).status).toBe(204);
    await hostile('contained', 'DELETE', '/me', mallory);
    await eventually(async () => (await api('GET', `/users/${mallory}`, { on: own, as: alice })).status === 404, { what: 'the erase', timeoutMs: 60_000 });
    await settled('the erase');
    await hostile('refused', 'PUT', `/following/${alice}`, mallory);
    await hostile('refused', 'GET', `/users/${alice}/activities`, mallory);
    await hostile('refused', 'GET', `/activities/${enc(post.id)}`, mallory);
    await hostile('refused', 'PUT', `/activities/${enc(post.id)}/reactions/like`, mallory);
    await hostile('refused', 'POST', `/activities/${enc(post.id)}/comments`, mallory, { text: 'back again' });
    await hostile('refused', 'DELETE', `/activities/${enc(post.id)}`, mallory);
    await hostile('contained', 'DELETE', `/blocks/${alice}`, mallory); // her own list: changes nothing of alice's
    await hostile('contained', 'DELETE', `/mutes/${frank}`, mallory);
    await hostile('contained', 'POST', '/activities', mallory, { verb: 'post', content: `@${alice} @${frank} hello`, to: [alice, frank] });
    await hostile('contained', 'DELETE', '/me', mallory); // and again
    await eventually(async () => (await api('GET', `/users/${mallory}`, { on: own, as: alice })).status === 404, {
      what: 'the second erase',
      timeoutMs: 60_000,
    });
    await settled('the second erase');
    expect((await api('GET', '/blocks', { on: own, as: alice })).body).toEqual({ items: [{ userId: null }], next: null });
    expect((await api('GET', '/mutes', { on: own, as: frank })).body).toEqual({ items: [{ userId: null }], next: null });
    expect(await groupsOf(alice, own)).toEqual([]);
    expect(await groupsOf(frank, own)).toEqual([]);
    expect((await api('GET', `/activities/${enc(post.id)}`, { on: own, as: alice })).body.reactions).toEqual({ counts: {}, own: [] });
    await hostile('refused', 'PUT', `/following/${alice}`, mallory); // still blocked
  },
};

const reactionKinds: AbuseCase = {
  name: 'huge reaction-kind sets: 250 distinct kinds on the victim’s post',
  async script(hostile) {
    const v = await victimWithNotifications();
    const mallory = uid('mallory');
    const allowed = new Set(['like', 'love']);
    const kinds = [...allowed, ...Array.from({ length: 248 }, (_, i) => `k${i}_${'z'.repeat(24)}`)];
    // One after another: the 250 stay inside the reactions bucket (concurrent requests of one
    // local process could each lease at once and spend it faster), so every refusal is REACTION_KINDS'.
    for (const kind of kinds) await hostile(allowed.has(kind) ? 'contained' : 'refused', 'PUT', `/activities/${enc(v.post.id)}/reactions/${kind}`, mallory);
    const counts = (await api('GET', `/activities/${enc(v.post.id)}`, { on: own, as: v.alice })).body.reactions.counts as Record<string, number>;
    expect(Object.keys(counts).every((k) => !k.startsWith('k'))).toBe(true);
    expect(counts.like).toBeLessThanOrEqual(2); // carol's, and mallory's if it got through
    const counter = (await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: counterKey(v.post.id), ConsistentRead: true }))).Item!;
    expect(itemSizeBytes(counter)).toBeLessThan(16 * 1024);
    await settled('the reactions');
    const real = new Set(v.before.map((g) => g.id));
    const kept = (await groupsOf(v.alice, own)).filter((g) => real.has(g.id) && g.kind === 'follow');
    expect(kept.map((g) => g.actors)).toEqual([[v.bob]]);
  },
};

const followChurn: AbuseCase = {
  name: 'follow churn: a script follows and unfollows the victim (20 posts) as fast as it can',
  async script(hostile) {
    const v = await victimWithNotifications();
    await Promise.all(Array.from({ length: 19 }, (_, i) => mustPost(v.alice, { verb: 'post', content: `post ${i + 1}` }, own)));
    const mallory = uid('mallory');
    // Each pair costs a backfill and two cleanups of the victim's 20 posts: the follows class bounds it.
    const started = Date.now();
    let accepted = 0;
    let limited = 0;
    let following = false;
    for (let i = 0; i < 400 && limited < 5; i++) {
      const res = await hostile('contained', following ? 'DELETE' : 'PUT', `/following/${v.alice}`, mallory);
      if (res.status === 204) {
        accepted += 1;
        following = !following;
      } else if (res.status === 429) limited += 1;
      else throw new Error(`churn request ${i}: ${res.status}`);
    }
    const follows = parseRateLimits(RATE_LIMITS)!.follows;
    const refill = Math.ceil((Date.now() - started) / (follows.periodMs / follows.burst)) + 1; // one per 30 s
    expect(limited).toBeGreaterThan(0);
    expect(accepted).toBeLessThanOrEqual(burstPerInstance(follows) + refill);
    await settled('the churn');
    // The victim: her timeline, her real notifications and her followers as they were (plus mallory while she follows).
    const timeline = (await api('GET', `/users/${v.alice}/activities?limit=100`, { on: own, as: v.alice })).body.items as { id: string }[];
    expect(timeline).toHaveLength(20);
    expect((await api('GET', `/users/${v.alice}`, { on: own, as: v.alice })).body.followers).toBe(following ? 2 : 1);
    const groups = await groupsOf(v.alice, own);
    expect(groups.find((g) => g.kind === 'follow')?.actors).toContain(v.bob);
    expect(groups.find((g) => g.kind === 'reaction')?.actors).toEqual([v.carol]);
    // And the churn left no stray copy in mallory's own feed: all 20 posts while following, none after.
    const feed = (await api('GET', '/feed?limit=100', { on: own, as: mallory })).body.items as { actor: string }[];
    expect(feed.filter((a) => a.actor === v.alice)).toHaveLength(following ? 20 : 0);
  },
};

const sqsUnsafeText: AbuseCase = {
  name: 'SQS-unsafe text: control characters, U+FFFE/U+FFFF and lone surrogates in posts, ids, comments and tokens',
  async script(hostile) {
    const v = await victimWithNotifications();
    const mallory = uid('mallory');
    for (const body of [
      { verb: 'post', content: `@${v.alice} hi \u0001` },
      { verb: 'post', content: 'bad \uFFFF', to: [v.alice] },
      { verb: 'post', object: 'photo:\uD800' },
      { verb: 'post', to: [`${v.alice}\uFFFE`] },
      { verb: 'post', attributes: { note: 'bell \u0007' } },
      { verb: 'post', foreignId: 'id\u0000' },
    ]) {
      await hostile('refused', 'POST', '/activities', mallory, body);
    }
    await hostile('refused', 'POST', `/activities/${enc(v.post.id)}/comments`, mallory, { text: 'esc \u001b[2J' });
    await hostile('refused', 'PUT', `/following/${enc(`${v.alice}\uFFFF`)}`, mallory);
    await hostile('refused', 'PUT', `/mutes/${enc(`x\u0002`)}`, mallory);
    await hostile('refused', 'POST', '/activities', `${mallory}\uFFFF`, { verb: 'post', to: [v.alice] }); // a token whose sub SQS cannot carry
    await settled('anything queued');
    expect((await api('GET', `/users/${mallory}/activities`, { on: own, as: mallory })).body.items).toEqual([]); // nothing was acknowledged
    expect(await snapshotOf(v.alice)).toEqual(v.before);
  },
};

/** Every case, in order. */
const cases: AbuseCase[] = [forgery, flooding, eraseAndComeBack, reactionKinds, followChurn, sqsUnsafeText];

// ---- the runner ---------------------------------------------------------------------------------

const log = new Map<string, Logged[]>();

function hostileFor(name: string): Hostile {
  const entries: Logged[] = [];
  log.set(name, entries);
  return async (expectation, method, path, as, json) => {
    const res = await api(method, path, { on: own, as, json });
    entries.push({ expectation, request: `${method} ${path.slice(0, 80)}`, status: res.status });
    return res;
  };
}

describe('hostile users harm no one', () => {
  for (const c of cases) {
    it(
      c.name,
      async () => {
        await c.script(hostileFor(c.name));
        const entries = log.get(c.name)!;
        expect(entries.length).toBeGreaterThan(0);
        expect(entries.filter((e) => e.status >= 500)).toEqual([]);
        expect(entries.filter((e) => e.expectation === 'refused' && !(e.status >= 400 && e.status < 500))).toEqual([]);
      },
      240_000,
    );
  }
});
