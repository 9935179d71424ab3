/**
 * The web console updates live: with the feed open, a followee's post appears, its
 * delete takes it away, and a like of the reader's post raises the unseen badge — pushed over the
 * realtime WebSocket to the page (local/console/src/live.ts), with no reload and no click.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { stack } from '../support/local.js';
import { openView, pagePerTest, screenshot } from './support/browser.js';

let page: Page;
pagePerTest((opened) => ({ page } = opened));

const consoleUrl = (params: Record<string, string>) => `${stack.apiUrl}/console/?${new URLSearchParams(params).toString()}`;
const contents = () => page.locator('[data-testid="activities"] .content').allTextContents();
const badge = () => page.locator('[data-testid="unseen-badge"]');

describe('live console', () => {
  it('shows a followee’s post as it is fanned out, drops it when deleted, and raises the badge on a like — without reloading', async () => {
    const [reader, followee] = [uid('fern'), uid('gus')];
    expect((await api('PUT', `/following/${followee}`, { as: reader })).status).toBe(204);
    const own = await api('POST', '/activities', { as: reader, json: { verb: 'post', content: 'fern says hi' } });
    expect(own.status).toBe(201);

    await openView(page, consoleUrl({ user: reader, view: 'feed' }));
    expect(await contents()).toEqual(['fern says hi']);
    expect(await badge().isHidden()).toBe(true);
    await page.waitForSelector('[data-testid="live"][data-status="caughtUp"]', { timeout: 15_000 });
    // A reload would lose this.
    await page.evaluate(() => ((globalThis as unknown as { sameDocument: boolean }).sameDocument = true));

    const posted = await api('POST', '/activities', { as: followee, json: { verb: 'post', content: 'gus, live' } });
    expect(posted.status).toBe(201);
    await expect.poll(contents, { timeout: 30_000 }).toEqual(['gus, live', 'fern says hi']);
    expect(await page.locator(`[data-testid="activities"] li[data-id="${posted.body.id}"] .actor`).textContent()).toBe(followee);

    expect((await api('PUT', `/activities/${own.body.id}/reactions/like`, { as: followee })).status).toBeLessThan(300);
    await expect.poll(() => badge().textContent(), { timeout: 30_000 }).toBe('1');
    expect(await badge().isHidden()).toBe(false);
    await screenshot(page, 'feed-live');

    expect((await api('DELETE', `/activities/${posted.body.id}`, { as: followee })).status).toBe(204);
    await expect.poll(contents, { timeout: 30_000 }).toEqual(['fern says hi']);

    expect(await page.evaluate(() => (globalThis as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  }, 90_000);

  it('updates the notifications view’s counts and list when a notification arrives', async () => {
    const [reader, fan] = [uid('hana'), uid('ivo')];
    await openView(page, consoleUrl({ user: reader, view: 'notifications' }));
    await page.waitForSelector('[data-testid="live"][data-status="caughtUp"]', { timeout: 15_000 });
    expect(await page.locator('[data-testid="notification-counts"]').textContent()).toContain('0 unseen');

    expect((await api('PUT', `/following/${reader}`, { as: fan })).status).toBe(204);
    await expect.poll(() => page.locator('[data-testid="notification-counts"]').textContent(), { timeout: 30_000 }).toContain('1 unseen');
    // The counts and the list are drawn by one reload: once the counts show, so does the follow.
    expect(await page.locator('[data-testid="notifications"] [data-verb="follow"] .actors').textContent()).toBe(fan);
    expect(await badge().textContent()).toBe('1');
  }, 90_000);
});
