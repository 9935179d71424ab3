/**
 * Social: capacity per reaction (the API's transaction, then its notification's), a notification
 * page and counts, what the stranger bound adds to a notification event, and an enriched vs a
 * plain feed page.
 */
import { callCount, type CapacityTotals, itemWrites } from '../capacity.js';
import type { BenchContext } from '../context.js';
import { quiesce, uid } from '../fixtures.js';
import { atMost, type Figure, figureOf } from '../report.js';
import { median, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'social';
const fig = figureOf(S);
const SAMPLES = 10;
const PAGE = 20;

const txItems = (t: CapacityTotals) => t.items.TransactWriteItemsCommand ?? 0;
/** Write units by the pricing rules (every item here is under 1 KB); DynamoDB Local's lower figure is shown beside. */
const rulesWcu = (t: CapacityTotals) => itemWrites(t, 2);
const callsOf = (t: CapacityTotals) =>
  Object.entries(t.calls)
    .map(([name, n]) => `${n} ${name.replace(/Command$/, '')}`)
    .join(' + ');

/** What `run` spent: itself (`api`), and with every job it started once the handlers are quiet (`total`). */
async function measure(ctx: BenchContext, run: () => Promise<unknown>): Promise<{ api: CapacityTotals; total: CapacityTotals }> {
  const before = ctx.handlerCapacity.snapshot();
  await run();
  const api = ctx.handlerCapacity.since(before);
  await quiesce(ctx);
  return { api, total: ctx.handlerCapacity.since(before) };
}

export const social: Scenario = {
  id: 'social',
  title: 'Reactions, notifications and enriched pages: capacity per operation',
  async run(ctx) {
    const author = uid('social-author');
    const post = await ctx.call('POST', '/activities', author, { verb: 'post', content: 'react to me' });
    const id = encodeURIComponent(post.body.id);
    await quiesce(ctx);

    const like = (liker: string) => measure(ctx, () => ctx.call('PUT', `/activities/${id}/reactions/like`, liker));
    const first = await like(uid('liker', 0));
    const next: { api: CapacityTotals; total: CapacityTotals }[] = [];
    for (let i = 1; i <= SAMPLES; i++) next.push(await like(uid('liker', i)));
    const check = await ctx.call('GET', `/activities/${id}`, author);
    if (check.body?.reactions?.counts?.like !== SAMPLES + 1) throw new Error(`reaction count ${JSON.stringify(check.body?.reactions)}`);

    // A reader with PAGE posts, each liked once: PAGE notification groups and an enrichable feed page.
    const reader = uid('social-reader');
    for (let i = 0; i < PAGE; i++) {
      const p = await ctx.call('POST', '/activities', reader, { verb: 'post', content: `p${i}` });
      await ctx.call('PUT', `/activities/${encodeURIComponent(p.body.id)}/reactions/like`, uid('fan', i));
    }
    await quiesce(ctx);
    const reads = async (path: string) => {
      const samples: CapacityTotals[] = [];
      const ms: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const { value: res, spent } = await ctx.handlerCapacity.measure(() => ctx.call('GET', path, reader));
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        samples.push(spent);
        ms.push(res.ms);
      }
      return { read: median(samples.map((s) => s.read)), calls: callsOf(samples[0]!), sample: samples[0]!, ms: median(ms) };
    };
    const page = await reads(`/notifications?limit=${PAGE}`);
    const counts = await reads('/notifications/counts');
    const plain = await reads(`/feed?limit=${PAGE}`);
    const rich = await reads(`/feed?limit=${PAGE}&enrich=reactions`);

    // The stranger bound (NOTIFY_STRANGER_LIMIT): a reaction that starts a group, by a stranger vs
    // by a user the author follows — the difference is the bound's write — and the bound's read,
    // the author's follow edge to the actor inside the BatchGet the notify job makes anyway
    // (measured on that very call, with and without the edge).
    const friend = uid('social-friend');
    await ctx.call('PUT', `/following/${friend}`, author);
    const firstOfGroup = async (liker: () => string) => {
      const p = await ctx.call('POST', '/activities', author, { verb: 'post', content: 'a new group' });
      await quiesce(ctx);
      return measure(ctx, () => ctx.call('PUT', `/activities/${encodeURIComponent(p.body.id)}/reactions/like`, liker()));
    };
    const byStranger: { total: CapacityTotals }[] = [];
    const byFriend: { total: CapacityTotals }[] = [];
    for (let i = 0; i < 3; i++) {
      byStranger.push(await firstOfGroup(() => uid('stranger', i)));
      byFriend.push(await firstOfGroup(() => friend));
    }
    const { audienceKeys } = await import('../../functions/services/controls-state.js');
    const { readGraphKeys } = await import('../../functions/stores/follow-store.js');
    const audience = async (withFollows: boolean) =>
      (await ctx.handlerCapacity.measure(() => readGraphKeys(audienceKeys(author, [friend], withFollows)))).spent;
    const [readWith, readWithout] = [await audience(true), await audience(false)];
    const boundWcu = median(byStranger.map((x) => rulesWcu(x.total))) - median(byFriend.map((x) => rulesWcu(x.total)));

    const wcu = (xs: { total: CapacityTotals }[]) => median(xs.map((x) => x.total.write));
    const figures: Figure[] = [
      fig(
        'WCU per reaction, the API call alone (PUT /activities/{id}/reactions/{kind}), by the pricing rules',
        median(next.map((x) => rulesWcu(x.api))),
        'WCU',
        {
          note: `${callsOf(next[0]!.api)}: the reaction item, the counter and the user's ledger entry in one transaction of ${txItems(next[0]!.api)} items; RCU ${round(median(next.map((x) => x.api.read)), 2)}; DynamoDB Local reports ${round(median(next.map((x) => x.api.write)), 2)} WCU`,
        },
      ),
      fig('WCU per reaction with its notification, into an existing group, by the pricing rules', median(next.map((x) => rulesWcu(x.total))), 'WCU', {
        note: `${callsOf(next[0]!.total)}, ${txItems(next[0]!.total)} transaction items; RCU ${round(median(next.map((x) => x.total.read)), 2)}; DynamoDB Local reports ${round(wcu(next), 2)} WCU`,
      }),
      fig('WCU per reaction with its notification, first of its group, by the pricing rules', rulesWcu(first.total), 'WCU', {
        note: `${callsOf(first.total)}, ${txItems(first.total)} transaction items; RCU ${round(first.total.read, 2)}; DynamoDB Local reports ${round(first.total.write, 2)} WCU`,
      }),
      fig('WCU the stranger bound adds to a notification event that starts a group (stranger vs followed sender), by the pricing rules', boundWcu, 'WCU', {
        ...atMost(boundWcu, 2, '(one transaction item)'),
        note: `stranger ${median(byStranger.map((x) => rulesWcu(x.total)))} WCU (${txItems(byStranger[0]!.total)} transaction items) vs followed ${median(byFriend.map((x) => rulesWcu(x.total)))} WCU (${txItems(byFriend[0]!.total)}); an event joining an existing group adds none`,
      }),
      fig(
        'RCU the stranger bound adds per notification event (the follow edge in the BatchGet the job makes anyway)',
        round(readWith.read - readWithout.read, 2),
        'RCU',
        {
          target: '≤ 1, no extra call',
          met: readWith.read - readWithout.read <= 1 && callCount(readWith) === callCount(readWithout),
          note: `${callsOf(readWith)} of ${readWith.items.BatchGetItemCommand ?? 0} keys, ${round(readWith.read, 2)} RCU, vs ${readWithout.items.BatchGetItemCommand ?? 0} keys, ${round(readWithout.read, 2)} RCU without the bound (strongly consistent)`,
        },
      ),
      fig(`RCU per notification page (limit ${PAGE}, ${PAGE} groups)`, round(page.read, 2), 'RCU', { note: `${page.calls}; p50 ${round(page.ms, 2)} ms` }),
      fig('RCU per GET /notifications/counts', round(counts.read, 2), 'RCU', {
        target: '1 GetItem',
        met: counts.calls === '1 GetItem' && counts.read <= 0.5,
        note: `${counts.calls}; p50 ${round(counts.ms, 2)} ms`,
      }),
      fig(`RCU per plain feed page (limit ${PAGE})`, round(plain.read, 2), 'RCU', { note: `${plain.calls}; p50 ${round(plain.ms, 2)} ms` }),
      fig(`RCU per enriched feed page (limit ${PAGE}, ?enrich=reactions)`, round(rich.read, 2), 'RCU', {
        target: '≤ 2 batch reads more',
        met: callCount(rich.sample) - callCount(plain.sample) === 2 && rich.sample.calls.BatchGetItemCommand === 2,
        note: `${rich.calls}; p50 ${round(rich.ms, 2)} ms (plain ${round(plain.ms, 2)} ms)`,
      }),
    ];
    return figures;
  },
};
