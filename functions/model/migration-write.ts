/**
 * What a data-model migration's plan asks to write (services/migrations/step.ts): plain values, so
 * plans stay pure and the store (stores/migration-store.ts) alone turns them into DynamoDB calls.
 */
/** A stored item as the document client returns it (numbers wrapped: `NumberValue`). */
export type StoredItem = Readonly<Record<string, unknown>>;
export type ItemKey = Readonly<Record<string, unknown>>;

/** A condition on a write; when it fails the write is skipped as already done (or overtaken). */
export interface WriteCondition {
  readonly expression: string;
  readonly names?: Readonly<Record<string, string>>;
  readonly values?: Readonly<Record<string, unknown>>;
}

export type MigrationWrite =
  /** A whole item. Unconditional puts are batched (BatchWriteItem); a conditional one is a PutItem. */
  | { readonly put: StoredItem; readonly condition?: WriteCondition }
  /** SET / REMOVE attributes of one item (`set` values plain; `remove` attribute names). */
  | {
      readonly update: ItemKey;
      readonly set?: Readonly<Record<string, unknown>>;
      readonly remove?: readonly string[];
      readonly condition?: WriteCondition;
    }
  /** Unconditional deletes are batched; a conditional one is a DeleteItem. */
  | { readonly delete: ItemKey; readonly condition?: WriteCondition }
  /** All or nothing (TransactWriteItems, ≤ 100 writes); a failed condition cancels it as already done. */
  | { readonly transaction: readonly (Exclude<MigrationWrite, { transaction: unknown }> | ConditionCheck)[] };

/** Inside a transaction only: a condition on another item (writes nothing). */
export interface ConditionCheck {
  readonly check: ItemKey;
  readonly condition: WriteCondition;
}
