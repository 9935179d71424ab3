/**
 * The v2 → v3 plan of notification partitions (functions/services/migrations/v3/notification-partition.ts),
 * pure: v2 partitions built as 91d8fe2's notification code stored them (its fold, claims, index
 * entries, order items, head and its hide of a `to` post, replayed below against HEAD's key
 * builders, which are v2's for every non-`to` gid), planned, and applied by a small in-memory
 * table that evaluates the plans' conditions and transactions as DynamoDB would; items are read
 * back as the document client returns them (numbers wrapped). Plus the real v2 partition of the
 * data-v2 fixture (n#carol of test/fixtures/data-v2, written through 91d8fe2's API).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { activityIdOf } from '../../functions/model/activity-id.js';
import {
  actorIndexKey,
  addressedEventId,
  claimedEventId,
  claimKey,
  dayOf,
  foldEvents,
  groupAttributes,
  groupIdOf,
  groupKey,
  type GroupState,
  headAttribute,
  notificationHeadKey,
  notificationPartition,
  type NotificationKind,
  orderKey,
  orderSortKey,
  parseGroup,
} from '../../functions/model/notification.js';
import { rangeKeyOf, ticksOfRangeKey } from '../../functions/model/range-key.js';
import type { MigrationWrite, WriteCondition } from '../../functions/services/migrations/step.js';
import { notificationPartitionOf, planNotificationPartition } from '../../functions/services/migrations/v3/notification-partition.js';

type Av = Record<string, AttributeValue>;
type Item = Record<string, unknown>;
type Key = Readonly<Record<string, unknown>>;
type Part = Extract<MigrationWrite, { transaction: unknown }>['transaction'][number];

// ---------------------------------------------------------------------------------------------
// An in-memory graph table: DynamoDB's semantics for the writes a plan makes.

const idOf = (k: Key) => JSON.stringify([String(k.pk), String(k.sk)]);
const keyOfPart = (p: Part): Key => ('put' in p ? p.put : 'update' in p ? p.update : 'delete' in p ? p.delete : p.check);
const byteOrder = (a: Item, b: Item) => Buffer.compare(Buffer.from(String(a.sk)), Buffer.from(String(b.sk)));

/** A condition of the forms the plans use: clauses joined by AND. */
function holds(item: Item | undefined, c: WriteCondition | undefined): boolean {
  if (!c) return true;
  const attr = (s: string) => (s.startsWith('#') ? c.names![s]! : s);
  const value = (s: string) => c.values![s];
  return c.expression.split(' AND ').every((clause) => {
    let m: RegExpExecArray | null;
    if ((m = /^attribute_not_exists\((\S+)\)$/.exec(clause))) return item?.[attr(m[1]!)] === undefined;
    if ((m = /^attribute_exists\((\S+)\)$/.exec(clause))) return item?.[attr(m[1]!)] !== undefined;
    if ((m = /^size\((\S+)\) = (:\w+)$/.exec(clause))) {
      const v = item?.[attr(m[1]!)];
      return v instanceof Set && v.size === Number(value(m[2]!));
    }
    if ((m = /^(\S+) = (:\w+)$/.exec(clause))) {
      const v = item?.[attr(m[1]!)];
      return v !== undefined && String(v) === String(value(m[2]!));
    }
    throw new Error(`condition not understood: ${clause}`);
  });
}

class Table {
  readonly rows = new Map<string, Av>();
  get(key: Key): Item | undefined {
    const av = this.rows.get(idOf(key));
    return av && unmarshall(av, { wrapNumbers: true });
  }
  set(item: Item) {
    this.rows.set(idOf(item), marshall(item, { removeUndefinedValues: true }));
  }
  delete(key: Key) {
    this.rows.delete(idOf(key));
  }
  /** One partition, as a strongly consistent Query returns it. */
  partition(pk: string): Item[] {
    return this.all()
      .filter((i) => i.pk === pk)
      .sort(byteOrder);
  }
  all(): Item[] {
    return [...this.rows.values()].map((av) => unmarshall(av, { wrapNumbers: true }));
  }
  clone(): Table {
    const t = new Table();
    for (const [k, v] of this.rows) t.rows.set(k, v);
    return t;
  }
  /** Every item, sets in a fixed order: two tables hold the same data iff their snapshots are equal. */
  snapshot() {
    const norm = (v: unknown): unknown =>
      v && typeof v === 'object'
        ? 'SS' in v
          ? { SS: [...(v as { SS: string[] }).SS].sort() }
          : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]))
        : v;
    return Object.fromEntries([...this.rows.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, norm(v)]));
  }
  /** Applies one planned write; false when a condition failed (a transaction then writes nothing). */
  apply(w: MigrationWrite): boolean {
    const parts: readonly Part[] = 'transaction' in w ? w.transaction : [w];
    if ('transaction' in w) {
      expect(parts.length).toBeLessThanOrEqual(100);
      expect(new Set(parts.map((p) => idOf(keyOfPart(p)))).size, 'an item twice in one transaction').toBe(parts.length);
    }
    if (!parts.every((p) => holds(this.get(keyOfPart(p)), p.condition))) return false;
    for (const p of parts) {
      if ('put' in p) this.set({ ...p.put });
      else if ('delete' in p) this.delete(p.delete);
      else if ('update' in p) {
        const item: Item = { ...(this.get(p.update) ?? p.update), ...(p.set ?? {}) };
        for (const name of p.remove ?? []) delete item[name];
        this.set(item);
      }
    }
    return true;
  }
}

const isTx = (w: MigrationWrite): w is Extract<MigrationWrite, { transaction: unknown }> => 'transaction' in w;
const plan = (t: Table, r: string) => planNotificationPartition(notificationPartition(r), t.partition(notificationPartition(r)));
function applyAll(t: Table, writes: readonly MigrationWrite[]) {
  for (const w of writes) expect(t.apply(w), `a condition failed: ${JSON.stringify(w, replacer)}`).toBe(true);
}
const replacer = (_: string, v: unknown) => (v instanceof Set ? [...v] : typeof v === 'bigint' ? v.toString() : v);
/** The partitions a Scan would plan: asked by their heads. */
const partitionsOf = (t: Table) => t.all().flatMap((i) => notificationPartitionOf(i) ?? []);
function migrated(t: Table): Table {
  const out = t.clone();
  for (const pk of partitionsOf(out)) applyAll(out, planNotificationPartition(pk, out.partition(pk)));
  return out;
}

// ---------------------------------------------------------------------------------------------
// v2 (91d8fe2): its events, fold, group writes and hide of a `to` post, replayed.

const DAY = '2026-11-20';
const T0 = BigInt(Date.UTC(2026, 10, 20, 9)) * 1_000_000n;
const at = (second: number) => T0 + BigInt(second) * 1_000_000_000n;
const EXPIRES = 1798416000;

interface V2Event {
  verb: string;
  object: string;
  actor: string;
  id: string;
  ticks: bigint;
  source?: string;
}
interface Post {
  author: string;
  rk: bigint;
  verb: string;
  object?: string;
  id: string;
}
const post = (author: string, second: number, verb: string, object?: string): Post => {
  const rk = rangeKeyOf(at(second), 424242n);
  return { author, rk, verb, object, id: activityIdOf(author, rk) };
};
const follow = (follower: string, followee: string, second: number): V2Event => ({
  verb: 'follow',
  object: followee,
  actor: follower,
  id: `follow:${follower}:${at(second)}`,
  ticks: at(second),
});
const reaction = (kind: string, actor: string, on: Post, second: number): V2Event => ({
  verb: kind,
  object: on.id,
  actor,
  id: `${kind}:${actor}:${at(second)}`,
  ticks: at(second),
  source: on.id,
});
const comment = (actor: string, on: Post, second: number): V2Event => ({
  verb: 'comment',
  object: on.id,
  actor,
  id: `comment:${actor}:${at(second)}:${rangeKeyOf(at(second), 1n)}`,
  ticks: at(second),
  source: on.id,
});
const mention = (p: Post): V2Event => ({ verb: 'mention', object: p.id, actor: p.author, id: `mention:${p.id}`, ticks: ticksOfRangeKey(p.rk), source: p.id });
const addressed = (p: Post): V2Event => ({
  verb: p.verb,
  object: p.object ?? p.id,
  actor: p.author,
  id: `to:${p.id}`,
  ticks: ticksOfRangeKey(p.rk),
  source: p.id,
});

interface V2Group {
  gid: string;
  verb: string;
  object: string;
  day: string;
  actors: string[];
  actorCount: number;
  activityCount: number;
  updatedTicks: bigint;
  seen: boolean;
  read: boolean;
  sources: string[];
  version: number;
}
/** 91d8fe2 groupIdOf: `<hash(object)>.<hash(verb)>.<day>`, which is HEAD's for every kind but `to`. */
const v2Gid = (verb: string, object: string, day: string) => groupIdOf(verb, object, day);
function v2Parse(item: Item | undefined): V2Group | undefined {
  if (!item) return undefined;
  return {
    gid: String(item.gid),
    verb: String(item.verb),
    object: String(item.object),
    day: String(item.day),
    actors: (item.actors as string[]) ?? [],
    actorCount: Number(String(item.actorCount)),
    activityCount: Number(String(item.activityCount)),
    updatedTicks: BigInt(String(item.updatedTicks)),
    seen: item.seen === true,
    read: item.read === true,
    sources: item.sources instanceof Set ? [...(item.sources as Set<string>)] : [],
    version: Number(String(item.version)),
  };
}
/** 91d8fe2 groupAttributes (no kind; `sources` when not empty) + expiresAt. */
const v2Stored = (g: V2Group) => ({
  gid: g.gid,
  verb: g.verb,
  object: g.object,
  day: g.day,
  actors: [...g.actors],
  actorCount: g.actorCount,
  activityCount: g.activityCount,
  updatedTicks: g.updatedTicks.toString(),
  seen: g.seen,
  read: g.read,
  ...(g.sources.length ? { sources: new Set(g.sources) } : {}),
  version: g.version,
  expiresAt: EXPIRES,
});
function v2Head(t: Table, r: string, day: string, delta: { unseen: number; unread: number; groups: number }) {
  const head: Item = t.get(notificationHeadKey(r)) ?? { ...notificationHeadKey(r) };
  for (const c of ['unseen', 'unread', 'groups'] as const) {
    if (delta[c] !== 0) head[headAttribute(c, day)] = Number(String(head[headAttribute(c, day)] ?? 0)) + delta[c];
  }
  t.set(head);
}
/** 91d8fe2 groupPuts: the group, its order item moved when its time moved. */
function v2Put(t: Table, r: string, previous: V2Group | undefined, next: V2Group) {
  t.set({ ...groupKey(r, next.gid), ...v2Stored(next) });
  if (previous && previous.updatedTicks !== next.updatedTicks) t.delete(orderKey(r, previous.updatedTicks, previous.gid));
  t.set({ ...orderKey(r, next.updatedTicks, next.gid), ...v2Stored(next) });
}
/** 91d8fe2 applyToGroup, one event per job: fold, claim (ADD), index entry of a new claim, group, head. */
function v2Notify(t: Table, r: string, ...events: V2Event[]) {
  for (const e of events) {
    const day = dayOf(e.ticks);
    const gid = v2Gid(e.verb, e.object, day);
    const previous = v2Parse(t.get(groupKey(r, gid)));
    const claim = t.get(claimKey(r, gid, e.actor));
    const claimed = claim?.events as Set<string> | undefined;
    if (claimed?.has(e.id)) continue;
    const newer = !previous || e.ticks >= previous.updatedTicks;
    const next: V2Group = {
      gid,
      verb: e.verb,
      object: e.object,
      day,
      actors: [...new Set(newer ? [e.actor, ...(previous?.actors ?? [])] : [...previous.actors, e.actor])].slice(0, 5),
      actorCount: (previous?.actorCount ?? 0) + (!previous || !claim ? 1 : 0),
      activityCount: (previous?.activityCount ?? 0) + 1,
      updatedTicks: newer ? e.ticks : previous.updatedTicks,
      seen: false,
      read: false,
      sources: [...new Set([...(previous?.sources ?? []), ...(e.source ? [e.source] : [])])],
      version: (previous?.version ?? 0) + 1,
    };
    if (!claim) t.set({ ...actorIndexKey(e.actor, r, gid), recipient: r, gid, expiresAt: EXPIRES });
    t.set({ ...claimKey(r, gid, e.actor), actor: e.actor, events: new Set([...(claimed ?? []), e.id]), expiresAt: EXPIRES });
    v2Put(t, r, previous, next);
    v2Head(t, r, day, previous ? { unseen: previous.seen ? 1 : 0, unread: previous.read ? 1 : 0, groups: 0 } : { unseen: 1, unread: 1, groups: 1 });
  }
}
/** 91d8fe2 markGroup + writeGroupMark. */
function v2Mark(t: Table, r: string, gid: string, what: 'seen' | 'read') {
  const g = v2Parse(t.get(groupKey(r, gid)))!;
  const read = what === 'read' ? true : g.read;
  v2Put(t, r, g, { ...g, seen: true, read, version: g.version + 1 });
  v2Head(t, r, g.day, { unseen: g.seen ? 0 : -1, unread: read && !g.read ? -1 : 0, groups: 0 });
}
/** 91d8fe2 hide.ts dropFromToGroup: the post leaves `sources` (the claim keeps its id), or the group goes. */
function v2HideTo(t: Table, r: string, p: Post) {
  const g = v2Parse(t.get(groupKey(r, v2Gid(p.verb, p.object ?? p.id, dayOf(ticksOfRangeKey(p.rk))))));
  if (!g || !g.sources.includes(p.id)) return;
  const sources = g.sources.filter((s) => s !== p.id);
  if (sources.length > 0) return v2Put(t, r, g, { ...g, sources, activityCount: Math.max(1, g.activityCount - 1), version: g.version + 1 });
  t.delete(groupKey(r, g.gid));
  t.delete(orderKey(r, g.updatedTicks, g.gid));
  v2Head(t, r, g.day, { unseen: g.seen ? 0 : -1, unread: g.read ? 0 : -1, groups: -1 });
  for (const c of t.partition(notificationPartition(r)).filter((i) => String(i.sk).startsWith(`a#${g.gid}#`))) {
    t.delete(c);
    t.delete(actorIndexKey(String(c.actor), r, g.gid));
  }
}

// ---------------------------------------------------------------------------------------------
// Reading results.

const toGid = (verb: string, object: string) => groupIdOf(verb, object, DAY, 'to');
const groupAt = (t: Table, r: string, gid: string) => parseGroup(t.get(groupKey(r, gid)));
const claimed = (t: Table, r: string, gid: string, actor: string) => {
  const events = t.get(claimKey(r, gid, actor))?.events as Set<string> | undefined;
  return events && [...events].sort();
};
const hashes = (...ids: string[]) => ids.map(claimedEventId).sort();
const headOf = (t: Table, r: string) => t.get(notificationHeadKey(r));
const ordersOf = (t: Table, r: string, gid: string) =>
  t.partition(notificationPartition(r)).filter((i) => String(i.sk).startsWith('o#') && String(i.sk).endsWith(`#${gid}`));

/**
 * What HEAD relies on, for every group of the partition: its gid is HEAD's groupIdOf for its
 * kind; one order item at its time with the same attributes; one claim per counted actor, holding
 * hashes only, whose events add up to its activityCount, each with its index entry; the head's
 * counts of each day match the groups. `orphans`: claims allowed without a group.
 */
function expectV3(t: Table, r: string, orphans = 0) {
  const items = t.partition(notificationPartition(r));
  const groups = items.filter((i) => String(i.sk).startsWith('g#')).map((i) => parseGroup(i)!);
  const claims = items.filter((i) => String(i.sk).startsWith('a#'));
  for (const g of groups) {
    expect(g.gid).toBe(groupIdOf(g.verb, g.object, g.day, g.kind));
    const orders = ordersOf(t, r, g.gid);
    expect(orders.map((o) => o.sk)).toEqual([orderSortKey(g.updatedTicks, g.gid)]);
    expect(parseGroup(orders[0])).toEqual(g);
    const own = claims.filter((c) => String(c.sk).startsWith(`a#${g.gid}#`));
    expect(own.length).toBe(g.actorCount);
    expect(own.reduce((n, c) => n + (c.events as Set<string>).size, 0)).toBe(g.activityCount);
    for (const c of own) expect(t.get(actorIndexKey(String(c.actor), r, g.gid))).toMatchObject({ recipient: r, gid: g.gid });
  }
  for (const c of claims) for (const id of c.events as Set<string>) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(claims.filter((c) => !groups.some((g) => String(c.sk).startsWith(`a#${g.gid}#`))).length).toBe(orphans);
  const head = headOf(t, r) ?? {};
  for (const day of new Set(groups.map((g) => g.day))) {
    const ofDay = groups.filter((g) => g.day === day);
    expect(Number(String(head[headAttribute('groups', day)]))).toBe(ofDay.length);
    expect(Number(String(head[headAttribute('unseen', day)]))).toBe(ofDay.filter((g) => !g.seen).length);
    expect(Number(String(head[headAttribute('unread', day)]))).toBe(ofDay.filter((g) => !g.read).length);
  }
}

/** Plans every partition of `t`, applies, and checks the re-plan of the result plans nothing. */
function migrateChecked(t: Table): Table {
  const done = migrated(t);
  for (const pk of partitionsOf(done)) expect(planNotificationPartition(pk, done.partition(pk))).toEqual([]);
  return done;
}

// ---------------------------------------------------------------------------------------------

describe('notificationPartitionOf', () => {
  it('asks once per partition, by its head, whatever the Scan pages', () => {
    const t = new Table();
    const p1 = post('carol', 1, 'status');
    v2Notify(t, 'carol', follow('bob', 'carol', 2), reaction('like', 'bob', p1, 3));
    v2Notify(t, 'dave', follow('bob', 'dave', 4));
    const asked = t.all().flatMap((i) => notificationPartitionOf(i) ?? []);
    expect(asked.sort()).toEqual(['n#carol', 'n#dave']);
    expect(notificationPartitionOf({ pk: 'nby#bob', sk: 'head' })).toBeUndefined();
    expect(notificationPartitionOf({ pk: 'user#carol', sk: 'head' })).toBeUndefined();
    expect(notificationPartitionOf({ pk: 'n#carol', sk: `g#${v2Gid('follow', 'carol', DAY)}` })).toBeUndefined();
  });
});

describe('case A: groups without `to` events', () => {
  it('follow, reaction, comment and mention groups: only their claims are hashed (orphans too)', () => {
    const t = new Table();
    const mine = post('carol', 1, 'status');
    const alices = post('alice', 2, 'status');
    v2Notify(t, 'carol', follow('bob', 'carol', 3), follow('dave', 'carol', 4));
    v2Notify(t, 'carol', reaction('like', 'bob', mine, 5), reaction('like', 'erin', mine, 6), reaction('like', 'bob', mine, 7));
    v2Notify(t, 'carol', comment('dave', mine, 8), mention(alices));
    // A claim whose group v2's retention removed before its batch deleted the claims.
    const orphanGid = v2Gid('love', mine.id, '2026-11-19');
    t.set({ ...claimKey('carol', orphanGid, 'erin'), actor: 'erin', events: new Set([`love:erin:${at(-86_400)}`]), expiresAt: EXPIRES });
    const before = t.partition('n#carol').filter((i) => !String(i.sk).startsWith('a#'));

    const writes = plan(t, 'carol');
    for (const w of writes) {
      expect(isTx(w)).toBe(false);
      expect(w).toMatchObject({ update: { pk: 'n#carol' }, condition: { expression: 'size(events) = :n' } });
      expect(String((w as { update: Key }).update.sk)).toMatch(/^a#/);
    }
    expect(writes).toHaveLength(7); // bob, dave (follow), bob, erin (like), dave (comment), alice (mention), the orphan
    const done = migrateChecked(t);
    expect(done.partition('n#carol').filter((i) => !String(i.sk).startsWith('a#'))).toEqual(before);
    expect(claimed(done, 'carol', v2Gid('like', mine.id, DAY), 'bob')).toEqual(hashes(`like:bob:${at(5)}`, `like:bob:${at(7)}`));
    expect(claimed(done, 'carol', v2Gid('mention', alices.id, DAY), 'alice')).toEqual(hashes(`mention:${alices.id}`));
    expect(claimed(done, 'carol', orphanGid, 'erin')).toEqual(hashes(`love:erin:${at(-86_400)}`));
    const kinds = Object.fromEntries(
      done
        .partition('n#carol')
        .filter((i) => String(i.sk).startsWith('g#'))
        .map((i) => [String(i.verb), parseGroup(i)!.kind]),
    );
    expect(kinds).toEqual({ follow: 'follow', like: 'reaction', comment: 'comment', mention: 'mention' });
    expectV3(done, 'carol', 1);
  });

  it('a reaction whose kind is literally `follow` or `mention` gets kind `reaction`, on its group and order item', () => {
    const t = new Table();
    const mine = post('carol', 1, 'status');
    const alices = post('alice', 2, 'status');
    v2Notify(t, 'carol', reaction('follow', 'erin', mine, 3), reaction('mention', 'bob', mine, 4), reaction('mention', 'dave', mine, 5));
    v2Notify(t, 'carol', follow('erin', 'carol', 6), mention(alices));
    const headBefore = headOf(t, 'carol');
    const writes = plan(t, 'carol');
    const kindWrites = writes.filter(isTx);
    expect(kindWrites).toHaveLength(2);
    for (const gid of [v2Gid('follow', mine.id, DAY), v2Gid('mention', mine.id, DAY)]) {
      const g = groupAt(t, 'carol', gid)!;
      expect(kindWrites).toContainEqual({
        transaction: [
          {
            update: groupKey('carol', gid),
            set: { kind: 'reaction' },
            remove: ['sources'],
            condition: { expression: 'version = :v AND attribute_not_exists(#kind)', names: { '#kind': 'kind' }, values: { ':v': g.version } },
          },
          { update: orderKey('carol', g.updatedTicks, gid), set: { kind: 'reaction' }, remove: ['sources'], condition: { expression: 'attribute_exists(pk)' } },
        ],
      });
    }
    // A group's kind goes before its claims are hashed: a `mention` group's kind is told by its claims' raw ids.
    for (const gid of [v2Gid('follow', mine.id, DAY), v2Gid('mention', mine.id, DAY)]) {
      const kindAt = writes.findIndex((w) => isTx(w) && w.transaction.some((p) => 'update' in p && p.update.sk === `g#${gid}`));
      const claimsAt = writes.flatMap((w, i) => ('update' in w && String(w.update.sk).startsWith(`a#${gid}#`) ? [i] : []));
      expect(claimsAt.length).toBeGreaterThan(0);
      for (const i of claimsAt) expect(i).toBeGreaterThan(kindAt);
    }
    const done = migrateChecked(t);
    const byGid = (gid: string) => [groupAt(done, 'carol', gid)!, parseGroup(ordersOf(done, 'carol', gid)[0])!];
    for (const g of [...byGid(v2Gid('follow', mine.id, DAY)), ...byGid(v2Gid('mention', mine.id, DAY))]) expect(g.kind).toBe('reaction');
    expect(byGid(v2Gid('follow', 'carol', DAY)).map((g) => g.kind)).toEqual(['follow', 'follow']);
    expect(byGid(v2Gid('mention', alices.id, DAY)).map((g) => g.kind)).toEqual(['mention', 'mention']);
    expect(done.get(groupKey('carol', v2Gid('mention', mine.id, DAY)))!.sources).toBeUndefined();
    expect(headOf(done, 'carol')).toEqual(headBefore);
    expectV3(done, 'carol');
  });
});

describe('case B: a pure `to` group', () => {
  it('is re-keyed to its `to` gid with its claims, index entries and order item; the head stays', () => {
    const t = new Table();
    const a = post('alice', 1, 'invite', 'game:42');
    const e = post('erin', 2, 'invite', 'game:42');
    v2Notify(t, 'dave', addressed(a), addressed(e));
    v2Mark(t, 'dave', v2Gid('invite', 'game:42', DAY), 'seen');
    const old = groupAt(t, 'dave', v2Gid('invite', 'game:42', DAY))!;
    expect(old.kind).toBe('reaction'); // how HEAD reads it before the migration
    const headBefore = headOf(t, 'dave');

    const writes = plan(t, 'dave');
    expect(writes).toHaveLength(1); // small enough: one transaction
    const done = migrateChecked(t);
    const gid = toGid('invite', 'game:42');
    expect(done.get(groupKey('dave', old.gid))).toBeUndefined();
    expect(ordersOf(done, 'dave', old.gid)).toEqual([]);
    expect(groupAt(done, 'dave', gid)).toEqual({ ...old, gid, kind: 'to' });
    expect(done.get(groupKey('dave', gid))!.expiresAt).toEqual(t.get(groupKey('dave', old.gid))!.expiresAt);
    expect(parseGroup(ordersOf(done, 'dave', gid)[0])).toEqual({ ...old, gid, kind: 'to' });
    for (const p of [a, e]) {
      expect(claimed(done, 'dave', old.gid, p.author)).toBeUndefined();
      expect(done.get(actorIndexKey(p.author, 'dave', old.gid))).toBeUndefined();
      // What HEAD's hide of the post looks up (hide.ts → forgetEvent).
      const hideGid = groupIdOf(p.verb, p.object ?? p.id, dayOf(ticksOfRangeKey(p.rk)), 'to');
      expect(claimed(done, 'dave', hideGid, p.author)).toEqual([claimedEventId(addressedEventId(p.id))]);
      expect(done.get(actorIndexKey(p.author, 'dave', gid))).toMatchObject({ recipient: 'dave', gid, expiresAt: expect.anything() });
    }
    expect(headOf(done, 'dave')).toEqual(headBefore);
    expectV3(done, 'dave');
  });
});

describe('case C: a group mixing `to` events with another kind', () => {
  for (const seen of [false, true]) {
    it(`is split; the head counts one more group${seen ? ', seen as the mixed group was' : ''}`, () => {
      const t = new Table();
      const addressedFollow = post('alice', 4, 'follow', 'frank'); // {"verb":"follow","object":"frank","to":["frank"]}
      v2Notify(t, 'frank', follow('bob', 'frank', 1), follow('alice', 'frank', 2), follow('dave', 'frank', 3), addressed(addressedFollow));
      const gid = v2Gid('follow', 'frank', DAY);
      if (seen) v2Mark(t, 'frank', gid, 'seen');
      const mixed = groupAt(t, 'frank', gid)!;
      expect(mixed).toMatchObject({ kind: 'follow', actorCount: 3, activityCount: 4, updatedTicks: at(4) });
      const head = headOf(t, 'frank')!;

      const done = migrateChecked(t);
      expect(groupAt(done, 'frank', gid)).toEqual({
        ...mixed,
        kind: 'follow',
        actors: ['dave', 'alice', 'bob'],
        actorCount: 3,
        activityCount: 3,
        updatedTicks: at(3),
        version: mixed.version + 1,
      });
      expect(done.get(groupKey('frank', gid))!.sources).toBeUndefined();
      expect(groupAt(done, 'frank', toGid('follow', 'frank'))).toEqual({
        ...mixed,
        gid: toGid('follow', 'frank'),
        kind: 'to',
        actors: ['alice'],
        actorCount: 1,
        activityCount: 1,
        updatedTicks: at(4),
        version: 1,
      });
      expect(claimed(done, 'frank', gid, 'alice')).toEqual(hashes(`follow:alice:${at(2)}`));
      expect(claimed(done, 'frank', toGid('follow', 'frank'), 'alice')).toEqual(hashes(`to:${addressedFollow.id}`));
      expect(claimed(done, 'frank', gid, 'bob')).toEqual(hashes(`follow:bob:${at(1)}`));
      expect(headOf(done, 'frank')).toEqual({
        ...head,
        [headAttribute('groups', DAY)]: expect.objectContaining({ value: '2' }),
        [headAttribute('unseen', DAY)]: expect.objectContaining({ value: seen ? '0' : '2' }),
        [headAttribute('unread', DAY)]: expect.objectContaining({ value: '2' }),
      });
      expectV3(done, 'frank');
    });
  }
});

describe('`to` events v2 hid (their post no longer in `sources`)', () => {
  it('are dropped from a `to` group, which is rebuilt from the live ones; the hidden sender leaves it', () => {
    const t = new Table();
    const a = post('alice', 1, 'invite', 'game:9');
    const b = post('bob', 2, 'invite', 'game:9');
    v2Notify(t, 'gina', addressed(a), addressed(b));
    v2HideTo(t, 'gina', b);
    const old = groupAt(t, 'gina', v2Gid('invite', 'game:9', DAY))!;
    expect(old).toMatchObject({ activityCount: 1, actorCount: 2, actors: ['bob', 'alice'] }); // v2 left bob counted
    expect(claimed(t, 'gina', old.gid, 'bob')).toEqual([`to:${b.id}`]);
    const headBefore = headOf(t, 'gina');

    const done = migrateChecked(t);
    const gid = toGid('invite', 'game:9');
    expect(groupAt(done, 'gina', gid)).toEqual({
      ...old,
      gid,
      kind: 'to',
      actors: ['alice'],
      actorCount: 1,
      activityCount: 1,
      updatedTicks: at(1),
      version: 1,
    });
    expect(claimed(done, 'gina', gid, 'bob')).toBeUndefined();
    expect(claimed(done, 'gina', old.gid, 'bob')).toBeUndefined();
    expect(done.all().filter((i) => i.pk === 'nby#bob')).toEqual([]);
    expect(headOf(done, 'gina')).toEqual(headBefore);
    expectV3(done, 'gina');
  });

  it('are dropped from a group of another kind, which keeps its gid and is rebuilt without them (no `to` group)', () => {
    // hal's post liked by erin, and alice's {"verb":"like","object":<hal's post>,"to":["hal"]}, later deleted:
    // v2 kept the group (the like's source is still in `sources`) with alice in it.
    const t = new Table();
    const mine = post('hal', 0, 'status');
    const p = post('alice', 2, 'like', mine.id);
    v2Notify(t, 'hal', reaction('like', 'erin', mine, 1), addressed(p));
    v2HideTo(t, 'hal', p);
    const gid = v2Gid('like', mine.id, DAY);
    const old = groupAt(t, 'hal', gid)!;
    expect(old).toMatchObject({ activityCount: 1, actorCount: 2, actors: ['alice', 'erin'] });
    const headBefore = headOf(t, 'hal');

    const done = migrateChecked(t);
    expect(groupAt(done, 'hal', gid)).toEqual({
      ...old,
      kind: 'reaction',
      actors: ['erin'],
      actorCount: 1,
      activityCount: 1,
      updatedTicks: at(1),
      version: old.version + 1,
    });
    expect(done.get(groupKey('hal', toGid('like', mine.id)))).toBeUndefined();
    expect(claimed(done, 'hal', gid, 'alice')).toBeUndefined();
    expect(done.get(actorIndexKey('alice', 'hal', gid))).toBeUndefined();
    expect(headOf(done, 'hal')).toEqual(headBefore);
    expectV3(done, 'hal');
  });
});

/** HEAD's notify of a `to` event into a new group (what HEAD writes when it ran before the pass). */
function headNotifiesTo(t: Table, r: string, p: Post) {
  const e = { ...addressed(p), kind: 'to' as const };
  const gid = groupIdOf(e.verb, e.object, dayOf(e.ticks), 'to');
  const { next } = foldEvents(undefined, gid, [e], new Set([e.actor]));
  const stored = { ...groupAttributes(next), expiresAt: EXPIRES };
  t.set({ ...groupKey(r, gid), ...stored });
  t.set({ ...orderKey(r, next.updatedTicks, gid), ...stored });
  t.set({ ...claimKey(r, gid, e.actor), actor: e.actor, events: new Set([claimedEventId(e.id)]), expiresAt: EXPIRES });
  t.set({ ...actorIndexKey(e.actor, r, gid), recipient: r, gid, expiresAt: EXPIRES });
  v2Head(t, r, next.day, { unseen: 1, unread: 1, groups: 1 });
}

describe('a `to` group HEAD already made', () => {
  it('takes the v2 group in: counts summed, claims united, one group less in the head', () => {
    const t = new Table();
    const a = post('alice', 1, 'invite', 'game:3');
    const e = post('erin', 5, 'invite', 'game:3');
    v2Notify(t, 'ivy', addressed(a));
    v2Mark(t, 'ivy', v2Gid('invite', 'game:3', DAY), 'read');
    headNotifiesTo(t, 'ivy', e);
    const gid = toGid('invite', 'game:3');
    const x = groupAt(t, 'ivy', gid)!;

    const done = migrateChecked(t);
    expect(groupAt(done, 'ivy', gid)).toEqual({
      ...x,
      actors: ['erin', 'alice'],
      actorCount: 2,
      activityCount: 2,
      updatedTicks: at(5),
      seen: false,
      read: false,
      version: x.version + 1,
    });
    expect(done.get(groupKey('ivy', v2Gid('invite', 'game:3', DAY)))).toBeUndefined();
    expect(claimed(done, 'ivy', gid, 'alice')).toEqual(hashes(`to:${a.id}`));
    expect(Number(String(headOf(done, 'ivy')![headAttribute('groups', DAY)]))).toBe(1);
    expectV3(done, 'ivy');
  });
});

/** Every scenario above in one table, and a mixed group too big for one transaction. */
function everything(): Table {
  const t = new Table();
  const mine = post('carol', 1, 'status');
  v2Notify(
    t,
    'carol',
    follow('bob', 'carol', 3),
    reaction('like', 'bob', mine, 5),
    reaction('mention', 'erin', mine, 6),
    comment('dave', mine, 8),
    mention(post('alice', 2, 'status')),
  );
  v2Notify(t, 'dave', addressed(post('alice', 1, 'invite', 'game:42')), addressed(post('erin', 2, 'invite', 'game:42')));
  v2Notify(t, 'frank', follow('bob', 'frank', 1), follow('alice', 'frank', 2), addressed(post('alice', 4, 'follow', 'frank')));
  const hidden = post('bob', 2, 'invite', 'game:9');
  v2Notify(t, 'gina', addressed(post('alice', 1, 'invite', 'game:9')), addressed(hidden), reaction('like', 'dave', post('gina', 0, 'status'), 3));
  v2HideTo(t, 'gina', hidden);
  headNotifiesTo(t, 'ivy', post('erin', 5, 'invite', 'game:3'));
  v2Notify(t, 'ivy', addressed(post('alice', 1, 'invite', 'game:3')));
  // jay: 60 followers, 60 senders of a `to` follow (10 of them also followers), 10 of those posts hidden.
  for (let i = 0; i < 60; i++) v2Notify(t, 'jay', follow(`u${i}`, 'jay', 10 + i));
  for (let i = 0; i < 10; i++) v2Notify(t, 'jay', follow(`w${i}`, 'jay', 100 + i));
  const jays = Array.from({ length: 60 }, (_, i) => post(`w${i}`, 200 + i, 'follow', 'jay'));
  for (const p of jays) v2Notify(t, 'jay', addressed(p));
  for (const p of jays.slice(50)) v2HideTo(t, 'jay', p);
  v2Mark(t, 'jay', v2Gid('follow', 'jay', DAY), 'seen');
  return t;
}

describe('re-runs', () => {
  const start = everything();
  const done = migrated(start);
  /** The table after an uninterrupted run of one partition's plan. */
  const finished = (pk: string) => {
    const t = start.clone();
    applyAll(t, planNotificationPartition(pk, t.partition(pk)));
    return t.snapshot();
  };

  it('the result is what HEAD reads, and a second run plans nothing', () => {
    for (const r of ['carol', 'dave', 'frank', 'gina', 'ivy', 'jay']) expectV3(done, r);
    for (const pk of partitionsOf(done)) expect(planNotificationPartition(pk, done.partition(pk))).toEqual([]);
    const big = plan(start, 'jay');
    expect(big.length).toBeGreaterThan(3); // steps 1 and 3 do not fit the group's transaction
    expect(groupAt(done, 'jay', toGid('follow', 'jay'))).toMatchObject({ kind: 'to', actorCount: 50, activityCount: 50, seen: true });
    expect(groupAt(done, 'jay', v2Gid('follow', 'jay', DAY))).toMatchObject({ kind: 'follow', actorCount: 70, activityCount: 70, seen: true });
  });

  it('a run stopped after any prefix of a plan, then planned again, ends where an uninterrupted run does', () => {
    for (const pk of partitionsOf(start)) {
      const writes = planNotificationPartition(pk, start.partition(pk));
      const want = finished(pk);
      for (let k = 0; k <= writes.length; k++) {
        const t = start.clone();
        applyAll(t, writes.slice(0, k));
        const rest = planNotificationPartition(pk, t.partition(pk));
        // …and stopped again anywhere in the second run.
        for (let j = 0; j <= rest.length; j++) {
          const u = t.clone();
          applyAll(u, rest.slice(0, j));
          applyAll(u, planNotificationPartition(pk, u.partition(pk)));
          expect(u.snapshot(), `${pk}: stopped after ${k}, then ${j}`).toEqual(want);
        }
      }
    }
  });

  it('when the groups’ transaction fails (the API changed the group), the writes after it change nothing a re-plan needs', () => {
    for (const r of ['frank', 'gina', 'jay']) {
      const writes = plan(start, r);
      const t = start.clone();
      const groupTx = writes.findIndex(
        (w) => isTx(w) && w.transaction.some((p) => 'condition' in p && p.condition?.expression === 'version = :v AND attribute_not_exists(#kind)'),
      );
      expect(groupTx).toBeGreaterThanOrEqual(0);
      writes.forEach((w, i) => i !== groupTx && t.apply(w)); // later writes may fail their own checks: skipped
      applyAll(t, plan(t, r));
      expect(t.snapshot()).toEqual(finished(notificationPartition(r)));
    }
  });
});

describe('the data-v2 fixture (91d8fe2 through its API)', () => {
  // n#carol of test/fixtures/data-v2 and carol's index entries: dave follows carol; alice posted
  // {"verb":"invite","object":"game:42","to":["carol","dave"]}.
  const FIXTURE = [
    '{"expiresAt":{"N":"1798416000"},"gid":{"S":"TCbZB0wn2J7eWScMCsFLce.o84LYQbNs5gteyvVx75eHn.2026-11-27"},"pk":{"S":"nby#dave"},"recipient":{"S":"carol"},"sk":{"S":"TCbZB0wn2J7eWScMCsFLce.TCbZB0wn2J7eWScMCsFLce.o84LYQbNs5gteyvVx75eHn.2026-11-27"}}',
    '{"actor":{"S":"dave"},"events":{"SS":["follow:dave:1795755512348190372"]},"expiresAt":{"N":"1798416000"},"pk":{"S":"n#carol"},"sk":{"S":"a#TCbZB0wn2J7eWScMCsFLce.o84LYQbNs5gteyvVx75eHn.2026-11-27#YeoIA_iFNSO3d9QUrOMTDN"}}',
    '{"activityCount":{"N":"1"},"actorCount":{"N":"1"},"actors":{"L":[{"S":"dave"}]},"day":{"S":"2026-11-27"},"expiresAt":{"N":"1798416000"},"gid":{"S":"TCbZB0wn2J7eWScMCsFLce.o84LYQbNs5gteyvVx75eHn.2026-11-27"},"object":{"S":"carol"},"pk":{"S":"n#carol"},"read":{"BOOL":false},"seen":{"BOOL":false},"sk":{"S":"g#TCbZB0wn2J7eWScMCsFLce.o84LYQbNs5gteyvVx75eHn.2026-11-27"},"updatedTicks":{"S":"1795755512348190372"},"verb":{"S":"follow"},"version":{"N":"1"}}',
    '{"activityCount":{"N":"1"},"actorCount":{"N":"1"},"actors":{"L":[{"S":"dave"}]},"day":{"S":"2026-11-27"},"expiresAt":{"N":"1798416000"},"gid":{"S":"TCbZB0wn2J7eWScMCsFLce.o84LYQbNs5gteyvVx75eHn.2026-11-27"},"object":{"S":"carol"},"pk":{"S":"n#carol"},"read":{"BOOL":false},"seen":{"BOOL":false},"sk":{"S":"o#7427616524506585435#TCbZB0wn2J7eWScMCsFLce.o84LYQbNs5gteyvVx75eHn.2026-11-27"},"updatedTicks":{"S":"1795755512348190372"},"verb":{"S":"follow"},"version":{"N":"1"}}',
    '{"expiresAt":{"N":"1798416000"},"gid":{"S":"kBznxCSskpJ2VPQRJnpu_E.UBT5rzpoT91kp3XBxMUy7m.2026-11-27"},"pk":{"S":"nby#alice"},"recipient":{"S":"carol"},"sk":{"S":"TCbZB0wn2J7eWScMCsFLce.kBznxCSskpJ2VPQRJnpu_E.UBT5rzpoT91kp3XBxMUy7m.2026-11-27"}}',
    '{"actor":{"S":"alice"},"events":{"SS":["to:7427616522175085346438016518538.YWxpY2U"]},"expiresAt":{"N":"1798416000"},"pk":{"S":"n#carol"},"sk":{"S":"a#kBznxCSskpJ2VPQRJnpu_E.UBT5rzpoT91kp3XBxMUy7m.2026-11-27#K9gGyX8OAK8aH8Myj6djqS"}}',
    '{"activityCount":{"N":"1"},"actorCount":{"N":"1"},"actors":{"L":[{"S":"alice"}]},"day":{"S":"2026-11-27"},"expiresAt":{"N":"1798416000"},"gid":{"S":"kBznxCSskpJ2VPQRJnpu_E.UBT5rzpoT91kp3XBxMUy7m.2026-11-27"},"object":{"S":"game:42"},"pk":{"S":"n#carol"},"read":{"BOOL":false},"seen":{"BOOL":false},"sk":{"S":"g#kBznxCSskpJ2VPQRJnpu_E.UBT5rzpoT91kp3XBxMUy7m.2026-11-27"},"sources":{"SS":["7427616522175085346438016518538.YWxpY2U"]},"updatedTicks":{"S":"1795755514679690461"},"verb":{"S":"invite"},"version":{"N":"1"}}',
    '{"activityCount":{"N":"1"},"actorCount":{"N":"1"},"actors":{"L":[{"S":"alice"}]},"day":{"S":"2026-11-27"},"expiresAt":{"N":"1798416000"},"gid":{"S":"kBznxCSskpJ2VPQRJnpu_E.UBT5rzpoT91kp3XBxMUy7m.2026-11-27"},"object":{"S":"game:42"},"pk":{"S":"n#carol"},"read":{"BOOL":false},"seen":{"BOOL":false},"sk":{"S":"o#7427616522175085346#kBznxCSskpJ2VPQRJnpu_E.UBT5rzpoT91kp3XBxMUy7m.2026-11-27"},"sources":{"SS":["7427616522175085346438016518538.YWxpY2U"]},"updatedTicks":{"S":"1795755514679690461"},"verb":{"S":"invite"},"version":{"N":"1"}}',
    '{"groups:2026-11-27":{"N":"2"},"pk":{"S":"n#carol"},"sk":{"S":"head"},"unread:2026-11-27":{"N":"2"},"unseen:2026-11-27":{"N":"2"}}',
  ].map((json) => JSON.parse(json) as Av);
  const fixture = () => {
    const t = new Table();
    for (const av of FIXTURE) t.rows.set(idOf(unmarshall(av)), av);
    return t;
  };
  /** An item's kind (by key) and its attributes' names and types (days in names as D). */
  const shapeOf = (av: Av) => {
    const kind = String(av.pk?.S).startsWith('nby#') ? 'nby' : String(av.sk?.S).slice(0, 2);
    return [
      kind,
      ...Object.entries(av)
        .map(([name, v]) => `${name.replace(/\d{4}-\d{2}-\d{2}/, 'D')}:${Object.keys(v)[0]}`)
        .sort(),
    ].join(' ');
  };

  it('has the item shapes the v2 replay in this file writes', () => {
    const t = new Table();
    v2Notify(t, 'carol', follow('dave', 'carol', 1), addressed(post('alice', 2, 'invite', 'game:42')));
    expect(new Set([...t.rows.values()].map(shapeOf))).toEqual(new Set(FIXTURE.map(shapeOf)));
  });

  it('migrates: the invite goes to its `to` group, dave’s follow claim is hashed, the head stays', () => {
    const t = fixture();
    const done = migrateChecked(t);
    const gid = groupIdOf('invite', 'game:42', '2026-11-27', 'to');
    expect(groupAt(done, 'carol', gid)).toMatchObject({ kind: 'to', verb: 'invite', object: 'game:42', actors: ['alice'], actorCount: 1, activityCount: 1 });
    expect(claimed(done, 'carol', gid, 'alice')).toEqual(hashes('to:7427616522175085346438016518538.YWxpY2U'));
    expect(done.get(actorIndexKey('alice', 'carol', gid))).toEqual({
      ...actorIndexKey('alice', 'carol', gid),
      recipient: 'carol',
      gid,
      expiresAt: expect.objectContaining({ value: '1798416000' }),
    });
    expect(done.get({ pk: 'nby#alice', sk: 'TCbZB0wn2J7eWScMCsFLce.kBznxCSskpJ2VPQRJnpu_E.UBT5rzpoT91kp3XBxMUy7m.2026-11-27' })).toBeUndefined();
    expect(groupAt(done, 'carol', 'TCbZB0wn2J7eWScMCsFLce.o84LYQbNs5gteyvVx75eHn.2026-11-27')!.kind).toBe('follow');
    expect(claimed(done, 'carol', 'TCbZB0wn2J7eWScMCsFLce.o84LYQbNs5gteyvVx75eHn.2026-11-27', 'dave')).toEqual(hashes('follow:dave:1795755512348190372'));
    expect(headOf(done, 'carol')).toEqual(headOf(t, 'carol'));
    expectV3(done, 'carol');
  });
});

/** Kinds HEAD's parseGroup gives every migrated group and order item, against what each was. */
describe("HEAD's reader on the migrated groups", () => {
  it('reads each group and order item with its kind and gid', () => {
    const done = migrated(everything());
    const want: Record<string, NotificationKind> = {
      [`carol ${v2Gid('follow', 'carol', DAY)}`]: 'follow',
      [`dave ${toGid('invite', 'game:42')}`]: 'to',
      [`frank ${v2Gid('follow', 'frank', DAY)}`]: 'follow',
      [`frank ${toGid('follow', 'frank')}`]: 'to',
      [`gina ${toGid('invite', 'game:9')}`]: 'to',
      [`ivy ${toGid('invite', 'game:3')}`]: 'to',
      [`jay ${v2Gid('follow', 'jay', DAY)}`]: 'follow',
      [`jay ${toGid('follow', 'jay')}`]: 'to',
    };
    const read = new Map<string, GroupState[]>();
    for (const i of done.all().filter((x) => /^[go]#/.test(String(x.sk)) && String(x.pk).startsWith('n#'))) {
      const g = parseGroup(i)!;
      const k = `${String(i.pk).slice(2)} ${g.gid}`;
      read.set(k, [...(read.get(k) ?? []), g]);
    }
    for (const [k, kind] of Object.entries(want))
      expect(
        read.get(k)?.map((g) => g.kind),
        k,
      ).toEqual([kind, kind]);
    // The rest (carol's reactions, comment and mention, gina's like) are all reactions, comments or mentions by their own verb.
    for (const [k, gs] of read) {
      if (k in want) continue;
      const kind = gs[0]!.kind;
      expect(['reaction', 'comment', 'mention']).toContain(kind);
      expect(gs.map((g) => g.kind)).toEqual([kind, kind]);
      expect(gs[0]!.gid).toBe(groupIdOf(gs[0]!.verb, gs[0]!.object, gs[0]!.day, kind));
    }
  });
});
