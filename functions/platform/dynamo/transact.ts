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
