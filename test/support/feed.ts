/** Helpers for the feed tests: a per-user API client with a cached token, and posting. */
import type { Activity } from '../../functions/model/activity.js';
import type { Page } from '../../functions/services/feed-merge.js';
import { api, token } from './local.js';

export type { Activity, Page };

/** An API client acting as `user` (one token, minted once). */
export async function as(user: string) {
  const bearer = await token(user);
  return {
    user,
    post: (body: unknown) => api<Activity>('POST', '/activities', { token: bearer, json: body }),
    get: (path: string) => api('GET', path, { token: bearer }),
    del: (id: string) => api('DELETE', `/activities/${id}`, { token: bearer }),
    page: (path: string, params: Record<string, string | number> = {}) => {
      const q = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
      return api<Page>('GET', q.size ? `${path}?${q}` : path, { token: bearer });
    },
  };
}

/** Post and insist on 201. */
export async function mustPost(client: Awaited<ReturnType<typeof as>>, body: unknown): Promise<Activity> {
  const res = await client.post(body);
  if (res.status !== 201) throw new Error(`POST /activities: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
