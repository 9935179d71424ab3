/** DynamoDB failures the plumbing names: throttling, failed conditions, unprocessed batch writes (a cancelled transaction: transact.ts). */

const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

export const isThrottling = (error: unknown): boolean => THROTTLING.has((error as Error)?.name);

export const isConditionalCheckFailed = (error: unknown): boolean => (error as Error)?.name === 'ConditionalCheckFailedException';

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
