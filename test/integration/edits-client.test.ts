/**
 * @tickfeed/client's edit calls against the local stack: updateActivity (conditional with ifMatch,
 * a stale one a TickfeedApiError 412), activityHistory walking its pages, and subscribe's onUpdate
 * for a follower's feed. Imported from the package's source: the workspace link may name another
 * checkout's build.
 */
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type Activity, createTickfeedClient, subscribe, TickfeedApiError, type WebSocketLike } from '../../client/src/index.js';
import { token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { stack } from '../support/local.js';
import { eventually } from '../support/wait.js';
import { collect } from '../support/collect.js';

const clientAs = (userId: string) => createTickfeedClient({ baseUrl: stack.apiUrl, token: () => token(userId) });

describe('@tickfeed/client: edits', () => {
  it('updateActivity, activityHistory and onUpdate', async () => {
    const [author, reader] = [uid('cl-author'), uid('cl-reader')];
    const alice = clientAs(author);
    const bob = clientAs(reader);
    expect((await bob.PUT('/following/{userId}', { params: { path: { userId: author } } })).response.status).toBe(204);

    const updates: Activity[] = [];
    const items: string[] = [];
    const sub = subscribe(bob, () => token(reader), {
      WebSocket: WebSocket as unknown as WebSocketLike,
      onItem: (i) => items.push(i.id),
      onUpdate: (i) => updates.push(i),
    });
    try {
      const { data: post } = await alice.POST('/activities', { body: { verb: 'post', content: 'v1' } });
      await eventually(() => items.includes(post!.id), { what: 'the post pushed to bob', timeoutMs: 30_000 });

      const v2 = await alice.updateActivity(post!.id, { content: 'v2' }, { ifMatch: '"1"' });
      expect(v2).toMatchObject({ id: post!.id, content: 'v2', version: 2 });
      const stale = await alice.updateActivity(post!.id, { content: 'v3' }, { ifMatch: '"1"' }).catch((e: unknown) => e);
      expect(stale).toBeInstanceOf(TickfeedApiError);
      expect((stale as TickfeedApiError).status).toBe(412);
      await alice.updateActivity(post!.id, { content: 'v3', attributes: { n: 1 } });

      const history = await collect(bob.activityHistory(post!.id, { limit: 1 }));
      expect(history.map((v) => [v.version, v.content])).toEqual([
        [2, 'v2'],
        [1, 'v1'],
      ]);

      await eventually(() => updates.some((u) => u.version === 3), { what: 'onUpdate at version 3', timeoutMs: 30_000 });
      expect(updates.map((u) => u.version)).toEqual([...new Set(updates.map((u) => u.version))].sort()); // once each, never older after newer
      expect(updates.at(-1)).toMatchObject({ id: post!.id, content: 'v3', attributes: { n: 1 } });
    } finally {
      sub.close();
    }
  }, 60_000);
});
