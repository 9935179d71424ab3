/**
 * A 10,000-post account exports completely across parts (own stack without pollers: the seeded
 * posts need no fan-out, the export is plain reads), each part well inside the 6 MB Lambda and
 * 10 MB API Gateway response limits.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newDiscriminator } from '../../functions/model/range-key.js';
import { timelineItem } from '../../functions/model/timeline-item.js';
import { isoFromTicks } from '../../functions/platform/clock.js';
import { api, type ApiResponse } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, own, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { writeItems } from '../support/write-items.js';

const POSTS = 10_000;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, pollers: false });
}, 120_000);

afterAll(stopOwnStack);

it(`exports all ${POSTS} posts of an account, in parts under 6 MB`, async () => {
  const user = uid('big');
  const now = BigInt(Date.now()) * 1_000_000n;
  const items = Array.from({ length: POSTS }, (_, i) => {
    const ticks = now - BigInt(i) * 1_000_000_000n;
    const item = timelineItem(user, { verb: 'post', content: `post ${i} ${'x'.repeat(200)}` }, ticks, newDiscriminator(), isoFromTicks(ticks), undefined);
    return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined));
  });
  await writeItems(doc, stack.tableNames.feed, items);

  const seen = new Set<string>();
  let parts = 0;
  let cursor: string | null = null;
  do {
    const res: ApiResponse<{ activities: { id: string }[]; next: string | null; profile: unknown }> = await api(
      'GET',
      `/me/export${cursor ? `?cursor=${cursor}` : ''}`,
      { on: own, as: user },
    );
    expect(res.status).toBe(200);
    expect(res.text.length).toBeLessThan(6 * 1024 * 1024);
    const body = res.body;
    expect(body.profile === null).toBe(parts > 0); // the profile comes with the first part only
    for (const a of body.activities) seen.add(a.id);
    cursor = body.next;
    parts++;
  } while (cursor);
  expect(parts).toBeGreaterThan(1);
  expect(seen.size).toBe(POSTS);
  expect(new Set(items.map((i) => String(i.id)))).toEqual(seen);
  expect((await api('GET', '/me', { on: own, as: user })).status).toBe(200);
}, 120_000);
