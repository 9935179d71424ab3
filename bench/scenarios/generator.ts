/**
 * Scenario — a feed generator's page (issue 42) against the generator's own time. A generator on
 * loopback answers a skeleton of 20 existing posts; the page (GET /feeds/{id}/activities?limit=20,
 * the handler in-process on the metered client) calls it, then hydrates: its p50 beside a direct
 * call of the generator (same URL and query) p50, and its read units and calls. A personalized
 * feed calls the generator on every page; a shared one answers from its 30 s cache after the first.
 */
import { figureOf } from '../report.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toActivity } from '../../functions/model/activity.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { ADMIN_SCOPE } from '../../lib/defs/scopes.js';
import { mintToken } from '../../local/jwt.js';
import type { BenchContext } from '../context.js';
import { timedFetch } from '../context.js';
import { benchOriginal, feedIdOf, quiesce, uid, writeModelItems } from '../fixtures.js';
import { meteredRoute } from '../invoke.js';
import { median, round, timed } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'generator';
const fig = figureOf(S);
const LIMIT = 20;
const SAMPLES = 15;

export const generator: Scenario = {
  id: S,
  title: `A feed generator's page of ${LIMIT} against the generator's own time`,
  async run(ctx) {
    const newest = nowTicks();
    const originals = Array.from({ length: LIMIT }, (_, i) => benchOriginal(uid('gen-author', i % 5), newest - BigInt(i) * 1_000_000n, i));
    await writeModelItems(ctx, ctx.stack.tableNames.feed, originals);
    const skeleton = JSON.stringify({ items: originals.map((o) => ({ activityId: toActivity(o).id })) });
    const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(skeleton));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed`;
      const personal = await define(ctx, url, true);
      const shared = await define(ctx, url, false);
      await quiesce(ctx);
      const reader = uid('gen-reader');
      const page = async (id: string) => {
        const got = await meteredRoute(ctx, 'GET', `/feeds/${id}/activities?limit=${LIMIT}`, reader);
        if ((got.res.body as { items: unknown[] }).items.length !== LIMIT) throw new Error('a generator page came back short');
        return got;
      };
      const own: number[] = [];
      const pages: Awaited<ReturnType<typeof page>>[] = [];
      const cached: Awaited<ReturnType<typeof page>>[] = [];
      await page(shared); // fills the cache
      for (let s = 0; s < SAMPLES; s++) {
        own.push((await timed(async () => (await fetch(`${url}?limit=${LIMIT}`)).text())).ms);
        pages.push(await page(personal));
        cached.push(await page(shared));
      }
      const p50 = (xs: readonly { ms: number }[]) => median(xs.map((x) => x.ms));
      const of = (xs: readonly { read: number; calls: number }[]) =>
        `${round(median(xs.map((x) => x.read)))} read units in ${median(xs.map((x) => x.calls))} calls`;
      return [
        fig(`generator page of ${LIMIT} (personalized: called every page): p50 − the generator's own p50`, round(p50(pages) - median(own)), 'ms', {
          note: `page ${round(p50(pages))} ms, the generator called directly ${round(median(own))} ms; ${of(pages)} (the definition, the reader's controls, one BatchGet of ${LIMIT} originals)`,
        }),
        fig(`generator page of ${LIMIT} from the 30 s cache (not personalized): p50`, round(p50(cached)), 'ms', {
          note: `${of(cached)} (the cached answer's GetItem instead of the call)`,
        }),
      ];
    } finally {
      server.closeAllConnections();
      server.close();
    }
  },
};

/** An admin's generator feed on `url`; its id. */
async function define(ctx: BenchContext, url: string, personalized: boolean): Promise<string> {
  const id = feedIdOf('gen', personalized ? 'p' : 's');
  const admin = await mintToken(ctx.keys, uid('gen-admin'), { scope: ADMIN_SCOPE, expiresIn: '2h' });
  const res = await timedFetch(`${ctx.stack.apiUrl}/feeds/${id}`, 'PUT', admin, { generator: { url, personalized } });
  if (res.status !== 200) throw new Error(`PUT /feeds/${id}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return id;
}
