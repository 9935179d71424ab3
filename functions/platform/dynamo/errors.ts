/** DynamoDB failures the plumbing names: throttling, unprocessed batch writes, cancelled transactions. */

const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

export const isThrottling = (error: unknown): boolean => THROTTLING.has((error as Error)?.name);

export const isConditionalCheckFailed = (error: unknown): boolean => (error as Error)?.name === 'ConditionalCheckFailedException';

/**
 * Per-item cancellation codes of a cancelled transaction (undefined for an item that was fine),
 * or undefined if `error` is not a TransactionCanceledException.
 * @example cancellationCodes(e) // [undefined, 'ConditionalCheckFailed']
 */
export function cancellationCodes(error: unknown): (string | undefined)[] | undefined {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (e?.name !== 'TransactionCanceledException') return undefined;
  return (e.CancellationReasons ?? []).map((r) => (r.Code === 'None' || r.Code === undefined ? undefined : r.Code));
}

/** BatchWriteItem left items unprocessed after every bounded retry: the caller's job is retried as a whole. */
export class UnprocessedWritesError extends Error {
  constructor(
    readonly table: string,
    readonly remaining: number,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(`${remaining} writes to ${table} still unprocessed after ${attempts} attempts`, options);
    this.name = 'UnprocessedWritesError';
  }
}
