/** Named failures of the fan-out path. Each makes its message come back (and, repeated, reach the DLQ). */

/** A job body that does not parse: a poison message, it fails every delivery and ends in the DLQ. */
export class InvalidJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidJobError';
  }
}

/** BatchWriteItem left items unprocessed after every bounded retry: the job is retried as a whole. */
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
