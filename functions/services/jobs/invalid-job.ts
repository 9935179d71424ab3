/** A job body that does not parse: a poison message, it fails every delivery and ends in the DLQ. */
export class InvalidJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidJobError';
  }
}
