/**
 * TransactWriteItems with named parts. A cancelled transaction reports one reason per item, in
 * the order sent; reading them by position breaks silently when an item is added or made
 * optional. Here each part carries a name and the outcome says which named parts' conditions
 * failed (with the item as it stood, when the part asked for it), and whether the transaction
 * lost a race — so stores decide by name: `failed.has('edge')`, never `codes[4]`.
 *
 * @example
 *   const out = await transact([
 *     ['mute', { Put: { …, ConditionExpression: 'attribute_not_exists(pk)' }, returnOld: true }],
 *     ['mirror', { Put: { … } }],
 *     follow && ['edge', { Update: { … } }],
 *   ]);
 *   if (!out.ok && out.failed.has('mute')) … out.old.mute …
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { doc } from '../clients.js';
import { keyNamesOf } from '../env.js';

type Operation = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
/** One item of a transaction (document-client shape); `returnOld` asks for the item when its condition fails. */
export type TxItem = { readonly [O in Operation]?: Record<string, unknown> } & { readonly returnOld?: boolean };
/** A named part; `false`/`undefined` entries are left out (optional parts inline). */
export type TxPart<N extends string> = readonly [N, TxItem] | false | undefined;

export type TxOutcome<N extends string> =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** Parts whose condition failed. */
      readonly failed: ReadonlySet<N>;
      /** The item as it stood, for failed parts that asked (`returnOld`) and had one. */
      readonly old: Partial<Record<N, Record<string, unknown>>>;
      /** Another transaction or write held an item (TransactionConflict) or a part was throttled: a lost race. */
      readonly conflict: boolean;
    };

const CONTENTION = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/** Send the parts as one transaction; a cancellation comes back as an outcome, any other error is thrown. */
export async function transact<N extends string>(parts: readonly TxPart<N>[]): Promise<TxOutcome<N>> {
  const present = parts.filter((p): p is readonly [N, TxItem] => Boolean(p));
  const items = present.map(([, { returnOld, ...item }]) => {
    if (!returnOld) return item;
    const [op, body] = Object.entries(item)[0]!;
    return { [op]: { ...body, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } };
  });
  try {
    await doc.send(new TransactWriteCommand({ TransactItems: items as never }));
    return { ok: true };
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) throw error;
    const failed = new Set<N>();
    const old: Partial<Record<N, Record<string, unknown>>> = {};
    let conflict = false;
    reasons.forEach((reason, i) => {
      const name = present[i]?.[0];
      if (name === undefined) return;
      if (reason.Code === 'ConditionalCheckFailed') {
        failed.add(name);
        if (reason.Item) old[name] = unmarshall(reason.Item as never, { wrapNumbers: true }) as Record<string, unknown>;
      } else if (reason.Code && CONTENTION.has(reason.Code)) {
        conflict = true;
      } else if (reason.Code && reason.Code !== 'None') {
        throw error; // ValidationError, ItemCollectionSizeLimitExceeded …: a bug or a bound, not a race
      }
    });
    // A cancellation that names no reason at all is a race we cannot place: treat it as one.
    return { ok: false, failed, old, conflict: conflict || failed.size === 0 };
  }
}

interface Reason {
  Code?: string;
  Item?: Record<string, unknown>;
}

function cancellationReasons(error: unknown): Reason[] | undefined {
  const e = error as { name?: string; CancellationReasons?: Reason[] };
  return e?.name === 'TransactionCanceledException' ? (e.CancellationReasons ?? []) : undefined;
}

/** Most items one TransactWriteItems may carry. */
export const MAX_TRANSACTION_ITEMS = 100;

/** Names a table's key attributes (env.ts keyNamesOf; a test passes its own). */
export type KeyNames = (table: string) => readonly string[];

/** The item a part names: its table and key (a Put's key read off its item). */
export function itemId(item: TxItem, keyNames: KeyNames = keyNamesOf): string {
  const body = (item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck)!;
  const table = String(body.TableName);
  const source = (body.Key ?? body.Item) as Record<string, unknown>;
  return JSON.stringify([table, ...keyNames(table).map((name) => String(source[name]))]);
}

/** A part's whole content, to tell one check asked twice from two different operations on one item. */
const contentOf = (item: TxItem) =>
  JSON.stringify(item, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Set ? [...(v as Set<unknown>)] : v));

export interface TransactionPack<N extends string> {
  /** Indexes of the groups packed here. */
  readonly members: number[];
  readonly parts: (readonly [N, TxItem])[];
}

/**
 * Groups of parts (each group a change that must be all or nothing) packed into as few
 * transactions as they fit, first fit in order: a transaction costs DynamoDB mostly per call, not
 * per item. A transaction may not name one item twice, so a group that would touch an item a pack
 * already touches goes to another pack — except a condition check identical to one already packed
 * (several changes checking one post), which is sent once: a check writes nothing, where two equal
 * updates (ADD 1 to one head) must both count. A group larger than a transaction allows
 * goes alone (the transaction refuses it, as it would unpacked).
 */
export function packTransactions<N extends string>(
  groups: readonly (readonly (readonly [N, TxItem])[])[],
  keyNames: KeyNames = keyNamesOf,
): TransactionPack<N>[] {
  type Pack = { members: number[]; parts: (readonly [N, TxItem])[]; items: Map<string, string> };
  type Keyed = { part: readonly [N, TxItem]; id: string; content: string };
  const packs: Pack[] = [];
  groups.forEach((parts, index) => {
    // Each part's item and content once, not once per pack tried.
    const keyed: Keyed[] = parts.map((part) => ({ part, id: itemId(part[1], keyNames), content: contentOf(part[1]) }));
    // A check already packed, word for word, is shared; anything else on a packed item is a clash.
    const shared = (pack: Pack, k: Keyed) => k.part[1].ConditionCheck !== undefined && pack.items.get(k.id) === k.content;
    const fits = (pack: Pack) => {
      const added = keyed.filter((k) => !shared(pack, k));
      if (added.some((k) => pack.items.has(k.id))) return false;
      return pack.parts.length + added.length <= MAX_TRANSACTION_ITEMS;
    };
    let pack = packs.find(fits);
    if (!pack) packs.push((pack = { members: [], parts: [], items: new Map() }));
    pack.members.push(index);
    for (const k of keyed) {
      if (shared(pack, k)) continue;
      pack.items.set(k.id, k.content);
      pack.parts.push(k.part);
    }
  });
  return packs.map(({ members, parts }) => ({ members, parts }));
}
