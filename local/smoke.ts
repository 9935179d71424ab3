/**
 * The post-deploy smoke test: a short end-to-end run through @tickfeed/client against a live API
 * (a deployed stack, or `npm start`), as two users — an author and a reader:
 *   token → me → follow → post → fan-out visible → page → reaction → notification → delete,
 * then it cleans up after itself (the posts, the follow and the reaction go; nothing it made
 * stays), also after a failure. The first step that fails ends the run: `SmokeFailure.step`
 * names it. Asynchronous effects (fan-out, notification, the delete's retract) are polled for up
 * to `timeoutMs`.
 */
import { createTickfeedClient, type TickfeedClient } from '@tickfeed/client';

export type Role = 'author' | 'reader';
export const ROLES: readonly Role[] = ['author', 'reader'];

export const STEPS = ['token', 'me', 'follow', 'post', 'fan-out', 'page', 'reaction', 'notification', 'delete', 'clean up'] as const;
export type Step = (typeof STEPS)[number];

export class SmokeFailure extends Error {
  override name = 'SmokeFailure';
  constructor(
    readonly step: Step,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`step "${step}" failed: ${message}`, options);
  }
}

export interface SmokeOptions {
  /** The API's root URL (the stack's ApiUrl output, or the local one). */
  readonly url: string;
  /** A bearer token for each role; two different users. */
  readonly tokenFor: (role: Role) => Promise<string>;
  /** How long an asynchronous effect may take to show. */
  readonly timeoutMs?: number;
  /** Told of every finished step. */
  readonly onStep?: (step: Step, ms: number) => void;
  /** A fetch to use (tests inject faults with it). */
  readonly fetch?: (request: Request) => Promise<Response>;
}

const VERB = 'smoke_check';

/** Runs every step; resolves when all passed, rejects with the SmokeFailure of the first that did not. */
export async function runSmoke(opts: SmokeOptions): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const run = `smoke-${Date.now().toString(36)}`;
  const tokens = {} as Record<Role, string>;
  const client = (role: Role) => createTickfeedClient({ baseUrl: opts.url, token: () => tokens[role], fetch: opts.fetch });
  const author = client('author');
  const reader = client('reader');
  const made = { posts: [] as string[], follow: false, reaction: undefined as string | undefined };
  let authorId = '';
  let readerId = '';

  const step = async (name: Step, body: () => Promise<void>) => {
    const started = performance.now();
    try {
      await body();
    } catch (error) {
      throw error instanceof SmokeFailure ? error : new SmokeFailure(name, (error as Error).message, { cause: error });
    }
    opts.onStep?.(name, Math.round(performance.now() - started));
  };
  const expectStatus = (what: string, response: Response, status: number) => {
    if (response.status !== status) throw new Error(`${what} answered ${response.status}, expected ${status}`);
  };
  const until = async (what: string, probe: () => Promise<boolean>) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  const feedIds = async (c: TickfeedClient, limit = 50) => {
    const { data, response } = await c.GET('/feed', { params: { query: { limit } } });
    expectStatus('GET /feed', response, 200);
    return data!.items.map((a) => a.id);
  };

  let failure: unknown;
  try {
    await step('token', async () => {
      for (const role of ROLES) tokens[role] = await opts.tokenFor(role);
    });
    await step('me', async () => {
      const [a, r] = await Promise.all([author.GET('/me'), reader.GET('/me')]);
      expectStatus("the author's GET /me", a.response, 200);
      expectStatus("the reader's GET /me", r.response, 200);
      authorId = a.data!.userId!;
      readerId = r.data!.userId!;
      if (authorId === readerId) throw new Error(`both tokens are ${authorId}'s: the author and the reader must be two users`);
    });
    await step('follow', async () => {
      const { response } = await reader.PUT('/following/{userId}', { params: { path: { userId: authorId } } });
      expectStatus(`PUT /following/${authorId}`, response, 204);
      made.follow = true;
    });
    await step('post', async () => {
      for (const n of [1, 2]) {
        const { data, response } = await author.POST('/activities', { body: { verb: VERB, content: `${run} #${n}` } });
        expectStatus('POST /activities', response, 201);
        if (data!.actor !== authorId) throw new Error(`the post's actor is ${data!.actor}, not ${authorId}`);
        made.posts.push(data!.id);
      }
    });
    await step('fan-out', async () => {
      await until("both posts in the reader's feed", async () => {
        const ids = await feedIds(reader);
        return made.posts.every((id) => ids.includes(id));
      });
    });
    await step('page', async () => {
      const first = await reader.GET('/feed', { params: { query: { limit: 1 } } });
      expectStatus('GET /feed?limit=1', first.response, 200);
      const cursor = first.data!.lastRangeKey;
      if (first.data!.items[0]?.id !== made.posts[1]) throw new Error('the first page does not start with the newest post');
      if (!cursor) throw new Error('the first page has no cursor to the next');
      const second = await reader.GET('/feed', { params: { query: { limit: 1, before: cursor } } });
      expectStatus('GET /feed?before=…', second.response, 200);
      if (second.data!.items[0]?.id !== made.posts[0]) throw new Error('the next page does not hold the older post');
    });
    await step('reaction', async () => {
      const id = made.posts[0]!;
      const { response } = await reader.PUT('/activities/{id}/reactions/{kind}', { params: { path: { id, kind: 'like' } } });
      expectStatus('PUT …/reactions/like', response, 204);
      made.reaction = id;
      const { data } = await reader.GET('/activities/{id}', { params: { path: { id } } });
      if (data?.reactions?.counts?.like !== 1 || !data.reactions.own?.includes('like')) {
        throw new Error(`the activity shows ${JSON.stringify(data?.reactions)}, not the reader's like`);
      }
    });
    await step('notification', async () => {
      await until("the author's notification of the like", async () => {
        const { data, response } = await author.GET('/notifications', { params: { query: { limit: 50 } } });
        expectStatus('GET /notifications', response, 200);
        return data!.items.some((g) => g.object === made.posts[0] && g.actors.includes(readerId));
      });
    });
    await step('delete', async () => {
      for (const id of made.posts) {
        const { response } = await author.DELETE('/activities/{id}', { params: { path: { id } } });
        expectStatus(`DELETE /activities/${id}`, response, 204);
      }
      const deleted = [...made.posts];
      made.posts = [];
      made.reaction = undefined; // went with its activity
      const { response } = await reader.GET('/activities/{id}', { params: { path: { id: deleted[0]! } } });
      expectStatus('GET of a deleted activity', response, 404);
      await until("the posts gone from the reader's feed", async () => {
        const ids = await feedIds(reader);
        return !deleted.some((id) => ids.includes(id));
      });
    });
  } catch (error) {
    failure = error;
  }
  // Whatever happened: leave nothing behind (each part on its own, so one refusal stops no other).
  const started = performance.now();
  const left: string[] = [];
  if (made.reaction) {
    const { response } = await reader
      .DELETE('/activities/{id}/reactions/{kind}', { params: { path: { id: made.reaction, kind: 'like' } } })
      .catch(() => ({ response: undefined }));
    if (response?.status !== 204) left.push(`the like on ${made.reaction}`);
  }
  for (const id of made.posts) {
    const { response } = await author.DELETE('/activities/{id}', { params: { path: { id } } }).catch(() => ({ response: undefined }));
    if (response?.status !== 204) left.push(`post ${id}`);
  }
  if (made.follow) {
    const { response } = await reader.DELETE('/following/{userId}', { params: { path: { userId: authorId } } }).catch(() => ({ response: undefined }));
    if (response?.status !== 204) left.push(`the follow of ${authorId} by ${readerId}`);
  }
  if (failure) {
    if (left.length && failure instanceof Error) failure.message += `; clean up could not remove ${left.join(', ')}`;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what the step threw, as it was
    throw failure;
  }
  if (left.length) throw new SmokeFailure('clean up', `could not remove ${left.join(', ')}`);
  opts.onStep?.('clean up', Math.round(performance.now() - started));
}
