import type { components } from './schema.js';

/** An RFC 9457 problem+json body, as tickfeed's handlers answer every 4xx and 5xx. */
export type Problem = components['schemas']['Problem'];

const isProblem = (body: unknown): body is Problem =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as Problem).type === 'string' &&
  typeof (body as Problem).title === 'string' &&
  typeof (body as Problem).status === 'number';

/**
 * A non-2xx answer. `body` is what the server sent: a `Problem` from tickfeed's handlers, or
 * API Gateway's own `{ "message": "Unauthorized" }` when the authorizer refuses the token.
 *
 * @example
 * try { for await (const a of client.feedItems()) show(a); }
 * catch (e) { if (e instanceof TickfeedApiError && e.problem?.code === 'validation_failed') … }
 */
export class TickfeedApiError extends Error {
  override readonly name = 'TickfeedApiError';
  /** The problem+json body, when the answer was one. */
  readonly problem: Problem | undefined;

  constructor(
    readonly status: number,
    readonly url: string,
    readonly body: unknown,
  ) {
    const problem = isProblem(body) ? body : undefined;
    const why = problem ? (problem.detail ?? problem.title) : JSON.stringify(body);
    super(`${status} from ${url}: ${why}`);
    this.problem = problem;
  }
}
