/**
 * v2 → v3, one recipient's notifications (`n#<recipient>` in the graph table; what v3 changed:
 * docs/data-model.md, Versions). Pure: the partition as one strongly consistent Query returns it →
 * the writes.
 *
 * A group without a stored `kind` is a v2 group; its claims still hold raw event ids, which say
 * what each event was (notification-events.ts). By the kinds of its events:
 *
 *   no `to` event   (case A) it stays. Its kind is written only where HEAD's derivation from the
 *                   verb is wrong (a reaction of kind `follow` or `mention`), with the order item's.
 *   `to` events     the live ones move to a `to` group of their own, `groupIdOf(…, 'to')` (merged
 *                   into it when HEAD already made one); the rest stays at the gid, rebuilt from its
 *                   events with its kind (case C), or the group goes (case B, or nothing live).
 *                   Three steps: (1) the moved events' claims and index entries at the new gid;
 *                   (2) one transaction: the groups, their order items, the head's counts of their
 *                   day (changed by the groups that appear or go), conditioned on the versions read;
 *                   (3) the old claims lose their `to` ids (and go with their index entries when
 *                   empty), each transaction checking that (2) committed. All three in one
 *                   transaction when they fit in 100 writes.
 *
 * A group whose gid HEAD cannot parse (v2 before e0c7600 wrote base64 gids) only has its claims
 * hashed. Every claim outside a v2 group is hashed (claimedEventId); outside a `to` group its raw
 * `to` ids are dropped (step 3's rule, which also finishes a run stopped after step 2): HEAD looks
 * a `to` event up only in `to` groups, so such a hash could never match. A re-plan of any state
 * the writes leave, in order, plans the rest; of the final state, nothing.
 */
import {
  actorIndexKey,
  CLAIM_PREFIX,
  claimKey,
  gidOfClaimSk,
  GROUP_PREFIX,
  groupAttributes,
  groupIdOf,
  groupKey,
  type GroupState,
  headAttribute,
  kindOfVerb,
  NOTIFICATION_KINDS,
  type NotificationKind,
  notificationHeadKey,
  notificationPartition,
  ORDER_PREFIX,
  orderKey,
  parseGroup,
  parseGroupId,
} from '../../../model/notification.js';
import type { ConditionCheck, ItemKey, MigrationWrite, StoredItem, WriteCondition } from '../step.js';
import { classify, type ClaimedEvent, claimedForm, isAddressedEventId, isRawEventId, merged, rebuilt, type V2Group } from './notification-events.js';

type Write = Exclude<MigrationWrite, { transaction: unknown }>;
type Part = Write | ConditionCheck;

const MAX_TRANSACTION_WRITES = 100;
const PARTITION_PREFIX = notificationPartition('');

const recipientOf = (pk: unknown) => (typeof pk === 'string' && pk.startsWith(PARTITION_PREFIX) ? pk.slice(PARTITION_PREFIX.length) : undefined);

/**
 * The partition to plan, asked by its `head` item: one per recipient, so the pass runs once per
 * partition wherever Scan pages break. Every v2 partition holding a group or a claim has one: v2
 * wrote the head in the transaction creating any group (a claim exists only with its group), nothing
 * expires it, and only an erase deletes it — after the claims and groups, which sort before it.
 */
export function notificationPartitionOf(item: StoredItem): string | undefined {
  const recipient = recipientOf(item.pk);
  return recipient !== undefined && item.sk === notificationHeadKey(recipient).sk ? notificationHeadKey(recipient).pk : undefined;
}

interface Group extends V2Group {
  readonly kind: NotificationKind | undefined;
  readonly expiresAt: number | undefined;
}
interface Claim {
  readonly key: ItemKey;
  readonly gid: string;
  readonly actor: string;
  readonly events: readonly string[];
  readonly expiresAt: number | undefined;
}
interface Partition {
  readonly recipient: string;
  readonly groups: Map<string, Group>;
  readonly claims: Map<string, Claim[]>;
  readonly orders: Set<string>;
  /** The head's numeric attributes as planned so far (each head write moves them on). */
  readonly head: Map<string, number>;
}

const numberOf = (v: unknown) => (v === undefined || v === null ? undefined : Number(String(v)));
const stringsOf = (v: unknown): string[] => (v instanceof Set || Array.isArray(v) ? [...(v as Iterable<unknown>)].map(String) : []);
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;
const KIND = { '#kind': 'kind' };

function readPartition(recipient: string, items: readonly StoredItem[]): Partition {
  const p: Partition = { recipient, groups: new Map(), claims: new Map(), orders: new Set(), head: new Map() };
  for (const item of items) {
    const sk = String(item.sk);
    if (sk.startsWith(GROUP_PREFIX)) {
      const state = parseGroup(item);
      const kind = NOTIFICATION_KINDS.find((k) => k === item.kind);
      if (state) p.groups.set(state.gid, { state, kind, sources: new Set(stringsOf(item.sources)), expiresAt: numberOf(item.expiresAt) });
    } else if (sk.startsWith(CLAIM_PREFIX) && typeof item.actor === 'string') {
      const gid = gidOfClaimSk(sk);
      const claim = { key: { pk: item.pk, sk }, gid, actor: item.actor, events: stringsOf(item.events), expiresAt: numberOf(item.expiresAt) };
      p.claims.set(gid, [...(p.claims.get(gid) ?? []), claim]);
    } else if (sk.startsWith(ORDER_PREFIX)) p.orders.add(sk);
    else if (sk === notificationHeadKey(recipient).sk) {
      for (const [name, value] of Object.entries(item)) if (name.includes(':')) p.head.set(name, numberOf(value) ?? 0);
    }
  }
  return p;
}

export function planNotificationPartition(pk: string, items: readonly StoredItem[]): MigrationWrite[] {
  const recipient = recipientOf(pk);
  if (recipient === undefined) return [];
  const p = readPartition(recipient, items);
  const writes: MigrationWrite[] = [];
  const v2Gids = new Set<string>();
  for (const group of p.groups.values()) {
    if (group.kind !== undefined) continue;
    v2Gids.add(group.state.gid);
    writes.push(...planGroup(p, group));
  }
  for (const [gid, claims] of p.claims) {
    if (v2Gids.has(gid)) continue;
    const dropTo = p.groups.get(gid)?.kind !== 'to';
    for (const claim of claims) writes.push(...asWrites(rewriteClaim(p, claim, dropTo)));
  }
  return writes;
}

/** A v2 group's writes (the file comment's cases). */
function planGroup(p: Partition, group: Group): MigrationWrite[] {
  const { recipient } = p;
  const g = group.state;
  const claims = p.claims.get(g.gid) ?? [];
  const { other, events } = classify(group, recipient, claims);
  if (!parseGroupId(g.gid) || !events.some((e) => e.kind === 'to')) return caseA(p, group, other, claims);

  const live = events.filter((e) => e.kind === 'to' && e.live);
  const rest = events.filter((e) => e.kind !== 'to');
  const gidTo = groupIdOf(g.verb, g.object, g.day, 'to');
  const existing = p.groups.get(gidTo);
  const verbatim = live.length === events.length; // every event a live `to`: the group moves as it is
  const part = live.length === 0 ? undefined : verbatim ? { ...g, gid: gidTo, kind: 'to' as const } : rebuilt(g, gidTo, 'to', live, 1);
  const claimsTo = p.claims.get(gidTo) ?? [];
  const toGroup = part && existing ? merged(existing.state, part, new Set([...claimsTo, ...live].map((c) => c.actor)).size) : part;
  const stays = rest.length === 0 ? undefined : rebuilt(g, g.gid, other, rest, g.version + 1);

  const groupTx: Part[] = [];
  if (toGroup) {
    const moved = existing && existing.state.updatedTicks !== toGroup.updatedTicks;
    groupTx.push(put(p, toGroup, existing?.expiresAt ?? group.expiresAt, existing ? atVersion(existing.state.version) : notExists()));
    if (moved) groupTx.push({ delete: orderKey(recipient, existing.state.updatedTicks, gidTo) });
    groupTx.push({ put: storedOrder(p, toGroup, existing?.expiresAt ?? group.expiresAt) });
  }
  const v2Condition: WriteCondition = { expression: 'version = :v AND attribute_not_exists(#kind)', names: KIND, values: { ':v': g.version } };
  if (stays) groupTx.push(put(p, stays, group.expiresAt, v2Condition));
  else groupTx.push({ delete: groupKey(recipient, g.gid), condition: v2Condition });
  if (!stays || stays.updatedTicks !== g.updatedTicks) groupTx.push({ delete: orderKey(recipient, g.updatedTicks, g.gid) });
  if (stays) groupTx.push({ put: storedOrder(p, stays, group.expiresAt) });
  const head = headWrite(
    p,
    g.day,
    [g, ...(toGroup && existing ? [existing.state] : [])],
    [stays, toGroup].filter((s): s is GroupState => s !== undefined),
  );
  if (head) groupTx.push(head);

  const step1 = toGroup ? movedClaims(p, gidTo, live, claimsTo, claims) : [];
  const step3 = claims.flatMap((c) => rewriteClaim(p, c, true));
  const whole = [...step1.flat(), ...groupTx, ...step3.flat()];
  if (whole.length <= MAX_TRANSACTION_WRITES && distinct(whole)) return [{ transaction: whole }];
  // Step 3 only once step 2 committed: the v2 group is gone, or has its kind.
  const committed: ConditionCheck = {
    check: groupKey(recipient, g.gid),
    condition: stays ? { expression: 'attribute_exists(#kind)', names: KIND } : notExists(),
  };
  return [...pack(step1), { transaction: groupTx }, ...pack(step3, committed)];
}

/** No `to` event: the kind where the verb's is wrong (before any claim is hashed: a `mention` group's claims tell its kind), then the claims hashed. */
function caseA(p: Partition, group: Group, kind: NotificationKind, claims: readonly Claim[]): MigrationWrite[] {
  const g = group.state;
  const writes: MigrationWrite[] = [];
  if (parseGroupId(g.gid) && kind !== kindOfVerb(g.verb)) {
    const set = { kind };
    const remove = ['sources'];
    const order = orderKey(p.recipient, g.updatedTicks, g.gid);
    writes.push({
      transaction: [
        {
          update: groupKey(p.recipient, g.gid),
          set,
          remove,
          condition: { expression: 'version = :v AND attribute_not_exists(#kind)', names: KIND, values: { ':v': g.version } },
        },
        ...(p.orders.has(String(order.sk)) ? [{ update: order, set, remove, condition: { expression: 'attribute_exists(pk)' } }] : []),
      ],
    });
  }
  for (const claim of claims) writes.push(...asWrites(rewriteClaim(p, claim, false)));
  return writes;
}

/** Step 1: each moved actor's claim at the `to` gid (with what it holds already) and index entry. */
function movedClaims(p: Partition, gidTo: string, live: readonly ClaimedEvent[], claimsTo: readonly Claim[], from: readonly Claim[]): Part[][] {
  const { recipient } = p;
  const old = new Map(from.map((c) => [c.actor, c]));
  return [...new Set(live.map((e) => e.actor))].map((actor) => {
    const key = claimKey(recipient, gidTo, actor);
    const there = claimsTo.find((c) => c.key.sk === key.sk);
    const events = [...new Set([...(there?.events ?? []), ...live.filter((e) => e.actor === actor).map((e) => claimedForm(e.id))])];
    const expiresAt = there?.expiresAt ?? old.get(actor)?.expiresAt;
    const stamp = expiresAt === undefined ? {} : { expiresAt };
    const unit: Part[] = [{ put: { ...actorIndexKey(actor, recipient, gidTo), recipient, gid: gidTo, ...stamp } }];
    if (!there || !sameSet(there.events, events)) {
      const condition = there ? { expression: 'size(events) = :n', values: { ':n': there.events.length } } : notExists();
      unit.unshift({ put: { ...key, actor, events: new Set(events), ...stamp }, condition });
    }
    return unit;
  });
}

/** A claim's ids hashed (raw `to` ids dropped if `dropTo`): the writes, as atomic units; none when it holds that already. */
function rewriteClaim(p: Partition, claim: Claim, dropTo: boolean): Write[][] {
  const kept = [...new Set(claim.events.filter((id) => !(dropTo && isRawEventId(id) && isAddressedEventId(id, claim.actor))).map(claimedForm))];
  if (sameSet(kept, claim.events)) return [];
  const asRead = { expression: 'size(events) = :n', values: { ':n': claim.events.length } };
  if (kept.length > 0) return [[{ update: claim.key, set: { events: new Set(kept) }, condition: asRead }]];
  return [[{ delete: claim.key, condition: asRead }, { delete: actorIndexKey(claim.actor, p.recipient, claim.gid) }]];
}

/** Units on their own: one write alone, more in a transaction. */
const asWrites = (units: readonly Write[][]): MigrationWrite[] => units.map((unit) => (unit.length === 1 ? unit[0]! : { transaction: unit }));
const notExists = (): WriteCondition => ({ expression: 'attribute_not_exists(pk)' });
const atVersion = (version: number): WriteCondition => ({ expression: 'version = :v', values: { ':v': version } });
const stamped = (s: GroupState, expiresAt: number | undefined) => ({ ...groupAttributes(s), ...(expiresAt === undefined ? {} : { expiresAt }) });
const put = (p: Partition, s: GroupState, expiresAt: number | undefined, condition: WriteCondition): Write => ({
  put: { ...groupKey(p.recipient, s.gid), ...stamped(s, expiresAt) },
  condition,
});
const storedOrder = (p: Partition, s: GroupState, expiresAt: number | undefined) => ({
  ...orderKey(p.recipient, s.updatedTicks, s.gid),
  ...stamped(s, expiresAt),
});

/**
 * The head's counts of `day` from `before` groups to `after` ones, conditioned on the values read
 * (a write only SETs: the value it plans is exact only if nothing moved them meanwhile).
 */
function headWrite(p: Partition, day: string, before: readonly GroupState[], after: readonly GroupState[]): Write | undefined {
  const count = (gs: readonly GroupState[], c: 'unseen' | 'unread' | 'groups') =>
    gs.filter((s) => c === 'groups' || (c === 'unseen' ? !s.seen : !s.read)).length;
  const set: Record<string, number> = {};
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const conditions: string[] = [];
  (['unseen', 'unread', 'groups'] as const).forEach((c, i) => {
    const delta = count(after, c) - count(before, c);
    if (delta === 0) return;
    const name = headAttribute(c, day);
    const read = p.head.get(name);
    names[`#h${i}`] = name;
    if (read === undefined) conditions.push(`attribute_not_exists(#h${i})`);
    else {
      conditions.push(`#h${i} = :h${i}`);
      values[`:h${i}`] = read;
    }
    set[name] = (read ?? 0) + delta;
    p.head.set(name, set[name]);
  });
  if (conditions.length === 0) return undefined;
  return {
    update: notificationHeadKey(p.recipient),
    set,
    condition: { expression: conditions.join(' AND '), names, ...(Object.keys(values).length ? { values } : {}) },
  };
}

const keyOf = (part: Part) => {
  const key = 'put' in part ? part.put : 'update' in part ? part.update : 'delete' in part ? part.delete : part.check;
  return JSON.stringify([key.pk, key.sk]);
};
const distinct = (parts: readonly Part[]) => new Set(parts.map(keyOf)).size === parts.length;

/** Units (each atomic) in order, packed into transactions of at most 100 writes, no item twice in one; `guard` opens each. */
function pack(units: readonly Part[][], guard?: ConditionCheck): MigrationWrite[] {
  const txs: Part[][] = [];
  let current: Part[] = guard ? [guard] : [];
  const fresh = () => (guard ? [guard] : []);
  for (const unit of units) {
    if (current.length + unit.length > MAX_TRANSACTION_WRITES || !distinct([...current, ...unit])) {
      txs.push(current);
      current = fresh();
    }
    current.push(...unit);
  }
  txs.push(current);
  return txs.filter((tx) => tx.length > (guard ? 1 : 0)).map((tx) => ({ transaction: tx }));
}
