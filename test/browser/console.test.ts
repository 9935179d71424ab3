/**
 * The web console (local/console/) in a real browser against the shared local stack: sign in,
 * post, see it in the feed, page older and catch up newer, follow someone, see their follow
 * notification and mark it seen, draw a rollup chart, see an activity window as bars.
 * Screenshots go to test/browser/artifacts/; UPDATE_DOCS_SCREENSHOT=1 also refreshes docs/console.png.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { stack } from '../support/local.js';
import { eventually } from '../support/wait.js';
import { pixelsOfColor } from './support/canvas.js';
import { clickAndSettle, docsScreenshot, openView, pagePerTest, screenshot } from './support/browser.js';

let page: Page;
let problems: string[];
pagePerTest((opened) => ({ page, problems } = opened));

const consoleUrl = (params: Record<string, string>) => `${stack.apiUrl}/console/?${new URLSearchParams(params).toString()}`;
const texts = (selector: string) => page.locator(selector).allTextContents();

async function post(as: string, body: Record<string, unknown>): Promise<{ id: string; rangeKey: string }> {
  const res = await api('POST', '/activities', { as, json: body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('feed', () => {
  it('signs in from /console with any user id', async () => {
    const user = uid('carol');
    await openView(page, `${stack.apiUrl}/console`);
    await page.locator('.sign-in input[name="user"]').fill(user);
    await page.locator('.sign-in button[type="submit"]').click();
    await page.waitForURL((url) => url.searchParams.get('user') === user);
    await page.waitForSelector('main[data-ready="true"]');
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe('Feed');
    expect(await page.locator('.activity-list .status').textContent()).toContain('Your feed is empty');
  });

  it('signs in, posts from the form, pages older and catches up newer', async () => {
    const user = uid('alice');
    for (let i = 1; i <= 4; i++) await post(user, { verb: 'post', content: `seed ${i}` });

    await openView(page, consoleUrl({ user, view: 'feed', limit: '3' }));
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe('Feed');
    expect(await page.locator('.sign-in input[name="user"]').inputValue()).toBe(user);
    expect(await texts('[data-testid="activities"] .content')).toEqual(['seed 4', 'seed 3', 'seed 2']);

    await page.locator('[data-testid="post-form"] textarea[name="content"]').fill('hello from the browser');
    await clickAndSettle(page.locator('[data-testid="post-form"] button[type="submit"]'));
    expect(await texts('[data-testid="activities"] .content')).toEqual(['hello from the browser', 'seed 4', 'seed 3', 'seed 2']);
    // Really posted, as the signed-in user.
    const feed = await api('GET', '/feed?limit=1', { as: user });
    expect(feed.body.items[0]).toMatchObject({ actor: user, verb: 'post', content: 'hello from the browser' });

    // Older: the page after the first one's lastRangeKey; the last page hides the button.
    await clickAndSettle(page.locator('[data-testid="older"]'));
    expect(await texts('[data-testid="activities"] .content')).toEqual(['hello from the browser', 'seed 4', 'seed 3', 'seed 2', 'seed 1']);
    expect(await page.locator('[data-testid="older"]').isHidden()).toBe(true);

    // Newer: a post made elsewhere arrives through a `since` catch-up, on top.
    await post(user, { verb: 'post', content: 'from another tab' });
    await clickAndSettle(page.locator('[data-testid="newer"]'));
    expect((await texts('[data-testid="activities"] .content'))[0]).toBe('from another tab');
    expect(await page.locator('[data-testid="activities"] li').count()).toBe(6);
    await screenshot(page, 'feed');
  });

  it('says why when the user id is not one', async () => {
    // The browser logs each refused request (400) as a console error, whenever Playwright hands the
    // log over: those are expected here, so from the start they are left out — any other error
    // still fails the test.
    page.removeAllListeners('console');
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('status of 400')) problems.push(`console: ${m.text()}`);
    });
    await openView(page, consoleUrl({ user: 'x'.repeat(257), view: 'feed' }));
    expect(await page.locator('[role="alert"]').textContent()).toContain('signing in as');
  });
});

describe('follows and notifications', () => {
  it('follows someone from the follows view; they see a follow notification and mark it seen', async () => {
    const [alice, bob] = [uid('alice'), uid('bob')];
    await post(bob, { verb: 'post', content: 'bob was here' });

    await openView(page, consoleUrl({ user: alice, view: 'follows' }));
    await page.locator('[data-testid="follow-form"] input[name="userId"]').fill(bob);
    await clickAndSettle(page.locator('[data-testid="follow-form"] button[type="submit"]'));
    expect(await texts('[data-testid="following"] li a')).toEqual([bob]);
    expect(await page.locator('[data-testid="follow-counts"]').textContent()).toContain('0 followers · 1 following');
    expect((await api('GET', `/users/${bob}`, { as: alice })).body).toMatchObject({ followers: 1 });
    // The follow copied bob's post into alice's feed (backfill, a queued job), shown by the feed view.
    await expect
      .poll(
        async () => {
          await openView(page, consoleUrl({ user: alice, view: 'feed' }));
          return texts('[data-testid="activities"] .content');
        },
        { timeout: 20_000 },
      )
      .toContain('bob was here');

    // Bob's timeline, through the link in alice's following list.
    await openView(page, consoleUrl({ user: alice, view: 'follows' }));
    await page.locator(`[data-testid="following"] a:text-is("${bob}")`).click();
    await page.waitForURL((url) => url.searchParams.get('of') === bob);
    await page.waitForSelector('main[data-ready="true"]');
    expect(await page.locator('h1').textContent()).toBe(`${bob}'s follows`);
    await page.locator('main a:text-is("posts")').click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'timeline');
    await page.waitForSelector('main[data-ready="true"]');
    expect(await texts('[data-testid="activities"] .content')).toEqual(['bob was here']);

    // Bob's notifications: the follow arrives through a queued job.
    await expect
      .poll(
        async () => {
          await openView(page, consoleUrl({ user: bob, view: 'notifications' }));
          return page.locator('[data-verb="follow"]').count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    const item = page.locator('[data-verb="follow"]');
    expect(await item.textContent()).toContain(`${alice} followed you`);
    expect(await item.getAttribute('class')).toContain('unseen');
    expect(await page.locator('[data-testid="unseen-badge"]').textContent()).toBe('1');
    expect(await page.locator('[data-testid="notification-counts"]').textContent()).toContain('1 unseen');
    await screenshot(page, 'notifications');

    await clickAndSettle(page.locator('button[data-action="mark-seen"]'));
    expect(await page.locator('[data-testid="notification-counts"]').textContent()).toContain('0 unseen');
    expect(await page.locator('[data-testid="unseen-badge"]').isHidden()).toBe(true);
    expect(await page.locator('[data-verb="follow"]').getAttribute('class')).not.toContain('unseen');
    expect((await api('GET', '/notifications/counts', { as: bob })).body).toMatchObject({ unseen: 0 });
  });
});

describe('rollups and activity', () => {
  // Posts backdated into known minutes of the past hour, with a verb of this run's own.
  const verb = `console_${uid('v').slice(2).replace(/-/g, '')}`;
  const actor = uid('player');
  const perMinute = [2, 5, 3, 7, 4, 6, 8, 5];
  const total = perMinute.reduce((a, b) => a + b, 0);

  beforeAll(async () => {
    const thisMinute = Math.floor(Date.now() / 60_000) * 60_000;
    const posts = perMinute.flatMap((n, i) =>
      Array.from({ length: n }, (_, j) => ({ verb, time: new Date(thisMinute - (i + 2) * 60_000 + j * 1000).toISOString() })),
    );
    await Promise.all(posts.map((body) => post(actor, body)));
    // Rollups and windows are written by the stream consumer: wait until all of them counted.
    await eventually(async () => {
      const res = await api('GET', `/rollups/${verb}.count`, { as: 'console-test', scope: ADMIN });
      return res.status === 200 && res.body.points.reduce((s: number, p: { value: number }) => s + p.value, 0) === total;
    });
  });

  it('draws the points of a rollup series', async () => {
    // A fixed name (it reads nothing of its own): the chart's screenshot goes into the README.
    await openView(page, consoleUrl({ user: 'ops', view: 'rollups', series: `${verb}.count`, granularity: 'minute' }));
    const chart = page.locator('[data-testid="chart"]');
    expect(await chart.getAttribute('data-points')).toBe(String(perMinute.length));
    expect(await page.locator('[data-testid="rollup-summary"]').textContent()).toContain(`total ${total}`);
    expect(await page.locator('[data-testid="rollup-summary"]').textContent()).toContain('max 8');
    // The series' colour on the canvas: the line and its points, not just axes.
    expect(await pixelsOfColor(page, '[data-testid="chart"] canvas', [0x25, 0x63, 0xeb])).toBeGreaterThan(200);
    const shot = await screenshot(page, 'rollups');
    if (process.env.UPDATE_DOCS_SCREENSHOT === '1') {
      mkdirSync(dirname(docsScreenshot), { recursive: true });
      copyFileSync(shot, docsScreenshot);
    }

    // The form is a link: hour granularity puts every post into at most two hours.
    await page.locator('select[name="granularity"]').selectOption('hour');
    await page.locator('[data-testid="rollup-form"] button[type="submit"]').click();
    await page.waitForURL(/granularity=hour/);
    await page.waitForSelector('main[data-ready="true"]');
    expect(Number(await chart.getAttribute('data-points'))).toBeLessThanOrEqual(2);
    expect(await page.locator('[data-testid="rollup-summary"]').textContent()).toContain(`total ${total}`);
  });

  it("shows another user's activity window as bars with its segment (admin token)", async () => {
    await openView(page, consoleUrl({ user: uid('ops'), view: 'activity', of: actor }));
    expect(await page.locator('[data-testid="segment"]').textContent()).toBe('casual');
    const counts = await page.locator('[data-testid="activity-bars"] .bar').evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('data-count'))));
    expect(counts.length).toBe(24);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
    await screenshot(page, 'activity');
  });
});

describe('ranked', () => {
  it('defines a ranked feed over the home feed, shows each post with its score explained, and pages with More', async () => {
    const [alice, bob, carol] = [uid('alice'), uid('bob'), uid('carol')];
    expect((await api('PUT', `/following/${bob}`, { as: alice })).status).toBe(204);
    const posts = [];
    for (const content of ['one', 'two', 'three']) posts.push(await post(bob, { verb: 'post', content }));
    expect((await api('PUT', `/activities/${posts[0]!.id}/reactions/like`, { as: carol })).status).toBe(204);
    await eventually(async () => (await api('GET', '/feed?limit=10', { as: alice })).body.items.length === 3);

    await openView(page, consoleUrl({ user: alice, view: 'ranked' }));
    expect(await page.locator('main').textContent()).toContain('None yet.');
    const feedId = `f${uid('r')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')}`.slice(0, 60);
    await page.locator('[data-testid="define-feed"] input[name="feedId"]').fill(feedId);
    await page.locator('[data-testid="define-feed"] input[name="expression"]').fill('10 * popularity - age');
    await page.locator('[data-testid="define-feed"] button[type="submit"]').click();
    await page.waitForURL((url) => url.searchParams.get('feed') === feedId);
    await page.waitForSelector('main[data-ready="true"]');
    // The liked post first, then newest first (age); each row says why.
    const rows = page.locator('[data-testid="activities"] li');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).toEqual([posts[0]!.id, posts[2]!.id, posts[1]!.id]);
    expect(await rows.first().locator('[data-testid="score"]').textContent()).toMatch(/^score \d+\.\d{3} = .*popularity 1\b/);

    // Two at a time: More follows the same ranking to its end.
    await openView(page, consoleUrl({ user: alice, view: 'ranked', feed: feedId, limit: '2' }));
    expect(await rows.count()).toBe(2);
    await clickAndSettle(page.locator('[data-testid="more"]'));
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).toEqual([posts[0]!.id, posts[2]!.id, posts[1]!.id]);
    expect(await page.locator('[data-testid="more"]').isHidden()).toBe(true);
    await screenshot(page, 'ranked');
    await openView(page, consoleUrl({ user: alice, view: 'ranked' }));
    expect(await page.locator('[data-testid="feeds"] li').allTextContents()).toEqual([feedId]);
  });
});
