/**
 * The load half of `npm run soak`, run as a SECOND process (forked by local/soak/main.ts with an IPC
 * channel): a set of users follow each other (all follows before any post, never an unfollow),
 * then post (with a foreignId, so a retry after a network error or a 5xx is idempotent) and read
 * feeds, for a bounded time and request count. Every acknowledged post (201/200) is recorded.
 *
 * Input (env): SOAK_API_URL, SOAK_KEYS (LocalKeys JSON), SOAK_USERS, SOAK_LOAD_MS, SOAK_MAX_REQUESTS,
 * SOAK_VERB, SOAK_RUN. Messages to the parent: `{ type: 'posting' }` once the follow graph is
 * built, then `{ type: 'result', result: LoadResult }`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { mintToken, type LocalKeys } from '../jwt.js';

export interface LoadResult {
  requests: number;
  /** Responses by kind over the whole load: `2xx`, `4xx:409`, `5xx:503`, `network`, … */
  responses: Record<string, number>;
  /** Client retries (same foreignId) of posts after a network error or a 5xx. */
  postRetries: number;
  /** Acknowledged posts: activity id → author. */
  acked: Record<string, string>;
  /** Posts never acknowledged (gave up): foreignIds. */
  unacked: string[];
  follows: number;
  followErrors: number;
  startedPostingAt: number;
  endedAt: number;
}

const env = (k: string) => {
  const v = process.env[k];
  if (v === undefined) throw new Error(`missing ${k}`);
  return v;
};
const apiUrl = env('SOAK_API_URL');
const keys = JSON.parse(env('SOAK_KEYS')) as LocalKeys;
const userCount = Number(env('SOAK_USERS'));
const loadMs = Number(env('SOAK_LOAD_MS'));
const maxRequests = Number(env('SOAK_MAX_REQUESTS'));
const verb = env('SOAK_VERB');
const run = env('SOAK_RUN');

const users = Array.from({ length: userCount }, (_, i) => `soak-${run}-u${i}`);
const tokens = new Map<string, string>();
for (const u of users) tokens.set(u, await mintToken(keys, u, { expiresIn: '2h' }));

const result: LoadResult = {
  requests: 0,
  responses: {},
  postRetries: 0,
  acked: {},
  unacked: [],
  follows: 0,
  followErrors: 0,
  startedPostingAt: 0,
  endedAt: 0,
};
const count = (kind: string) => (result.responses[kind] = (result.responses[kind] ?? 0) + 1);

/** One HTTP call; `undefined` status = network error. */
async function call(user: string, method: string, path: string, body?: unknown): Promise<{ status?: number; json?: unknown }> {
  result.requests += 1;
  try {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens.get(user)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    count(res.status < 300 ? '2xx' : `${Math.floor(res.status / 100)}xx:${res.status}`);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  } catch {
    count('network');
    return {};
  }
}

const retryable = (status: number | undefined) => status === undefined || status >= 500 || status === 429;

/** Retries a network error / 5xx with backoff until `deadline`. */
async function withRetries(deadline: number, attempt: () => Promise<{ status?: number; json?: unknown }>, onRetry?: () => void) {
  for (let i = 0; ; i++) {
    const r = await attempt();
    if (!retryable(r.status) || Date.now() > deadline) return r;
    onRetry?.();
    await sleep(Math.min(2_000, 100 * 2 ** i));
  }
}

// 1. The follow graph: each user follows ~10 others (ring neighbours + random), all before any post.
const rnd = (n: number) => Math.floor(Math.random() * n);
const edges: [string, string][] = [];
for (let i = 0; i < users.length; i++) {
  const targets = new Set<number>();
  for (let k = 1; k <= 3; k++) targets.add((i + k) % users.length);
  while (targets.size < Math.min(10, users.length - 1)) {
    const t = rnd(users.length);
    if (t !== i) targets.add(t);
  }
  for (const t of targets) edges.push([users[i]!, users[t]!]);
}
let nextEdge = 0;
await Promise.all(
  Array.from({ length: 6 }, async () => {
    while (nextEdge < edges.length) {
      const [from, to] = edges[nextEdge++]!;
      const r = await withRetries(Date.now() + 60_000, () => call(from, 'PUT', `/following/${to}`));
      if (r.status === 204) result.follows += 1;
      else result.followErrors += 1;
    }
  }),
);

process.send?.({ type: 'posting' });
result.startedPostingAt = Date.now();
const stopAt = result.startedPostingAt + loadMs;

// 2. Mixed load: posts, feed reads, follower-list and profile reads.
let seq = 0;
async function postOnce(author: string): Promise<void> {
  const foreignId = `${run}-${seq++}`;
  // A post is retried (same foreignId) well past the load's end: giving up early would leave a
  // post that may be stored but is not recorded as acknowledged.
  const r = await withRetries(
    Date.now() + 120_000,
    () => call(author, 'POST', '/activities', { verb, foreignId, content: `soak ${foreignId}` }),
    () => (result.postRetries += 1),
  );
  if ((r.status === 201 || r.status === 200) && r.json && typeof (r.json as { id?: unknown }).id === 'string') {
    result.acked[(r.json as { id: string }).id] = author;
  } else {
    result.unacked.push(foreignId);
  }
}

async function lane(): Promise<void> {
  while (Date.now() < stopAt && result.requests < maxRequests) {
    const user = users[rnd(users.length)]!;
    const dice = Math.random();
    if (dice < 0.4) await postOnce(user);
    else if (dice < 0.8) await call(user, 'GET', '/feed?limit=20');
    else if (dice < 0.9) await call(user, 'GET', `/users/${users[rnd(users.length)]}/followers?limit=20`);
    else await call(user, 'GET', `/users/${users[rnd(users.length)]}`);
    await sleep(20);
  }
}
await Promise.all(Array.from({ length: 6 }, lane));
result.endedAt = Date.now();
process.send?.({ type: 'result', result }, () => process.exit(0));
if (!process.send) {
  console.log(JSON.stringify(result));
}
