/**
 * Paging under concurrent writes, one Query per page (counted on the handler's own SDK client),
 * and the size/write cost of a typical item (for the closing note).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as feedRead } from '../../functions/handlers/feed-read.js';
import { toActivity } from '../../functions/model/activity.js';
import { homeFeedKey } from '../../functions/model/feed-copy.js';
import { timelineKey } from '../../functions/model/timeline-item.js';
import { dynamo as handlerDynamo } from '../../functions/platform/clients.js';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { httpEvent } from '../support/events.js';
import { copyItem, originalItem, writeFeedItems } from '../support/seed-originals.js';

type Item = { id: string; rangeKey: string; content: string | null };

async function pool<T>(n: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}

const postNow = async (as: string, content: string): Promise<Item & { doneAt: number }> => {
  const res = await api('POST', '/activities', { as, json: { verb: 'post', content } });
  if (res.status !== 201) throw new Error(`post failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...(res.body as Item), doneAt: performance.now() };
};

/** A home-feed copy of someone else's post made at `timeMs`, as a (late) fan-out writes it. */
const copyAt = (owner: string, timeMs: number, content: string) =>
  copyItem({ ...originalItem({ actor: uid('author'), verb: 'post', timeMs }), content }, owner);

/** A late copy (a fan-out or backfill behind the reader) lands now, older than everything. */
const lateCopy = async (owner: string, timeMs: number, content: string): Promise<Item & { doneAt: number }> => {
  const item = copyAt(owner, timeMs, content);
  await writeFeedItems([item]);
  return { ...(toActivity(item) as Item), doneAt: performance.now() };
};

describe('paging', () => {
  it('walks 260 items while 60 more arrive (newer and older): each item once, none older than the cursor skipped', async () => {
    const me = uid('pager');
    const base = Date.now() - 3_600_000; // an hour ago, well inside the default TTL
    // Home-feed copies seeded straight into the table as fan-out writes them (BatchWrite: fast);
    // the concurrent writers below post through the API or land late copies.
    const seededItems = Array.from({ length: 260 }, (_, i) => copyAt(me, base + i, `seed-${i}`));
    await writeFeedItems(seededItems);
    const seeded = seededItems.map((s) => toActivity(s));

    const seen: Item[] = [];
    const latencies: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let writer: Promise<(Item & { doneAt: number })[]> | undefined;
    let lastPageStartedAt = 0;
    const t0 = performance.now();
    let head: string | undefined;
    do {
      const started = performance.now();
      lastPageStartedAt = started;
      const res: { status: number; body: { items: Item[]; lastRangeKey: string | null } } = await api(
        'GET',
        `/feed?limit=25${cursor ? `&before=${cursor}` : ''}`,
        { as: me },
      );
      latencies.push(performance.now() - started);
      expect(res.status).toBe(200);
      seen.push(...res.body.items);
      cursor = res.body.lastRangeKey;
      if (pages++ === 0) {
        head = res.body.items[0]!.rangeKey;
        // Start writers after the first page: 30 posts (newer than everything) and 30 late copies
        // of older posts (older than everything).
        writer = pool(60, 6, (i) => (i % 2 ? postNow(me, `new-${i}`) : lateCopy(me, base - 1000 - i, `old-${i}`)));
      }
    } while (cursor !== null);
    const walkMs = performance.now() - t0;
    const written = await writer!;
    const writersMs = performance.now() - t0;

    const ids = seen.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length); // never twice
    const keys = seen.map((i) => BigInt(i.rangeKey));
    for (let i = 1; i < keys.length; i++) expect(keys[i]! > keys[i - 1]!).toBe(true); // newest first, strictly
    for (const s of seeded) expect(ids).toContain(s.id); // nothing present at the start is skipped
    // "Old" copies are older than every seed, so they land beyond every cursor of the walk: each one
    // acknowledged before the final page was requested must be in the walk. "New" posts are newer
    // than the first page's head: never in a later page.
    const old = written.filter((w) => w.content?.startsWith('old-'));
    const fresh = written.filter((w) => w.content?.startsWith('new-'));
    const settledOld = old.filter((o) => o.doneAt < lastPageStartedAt);
    for (const o of settledOld) expect(ids).toContain(o.id);
    for (const f of fresh) expect(ids.slice(25)).not.toContain(f.id);
    expect(pages).toBeGreaterThanOrEqual(11); // 260 seeded in pages of 25, plus late copies that land before the end

    // since the first page's head returns exactly the newer posts.
    const newer = await api('GET', `/feed?since=${head}&limit=100`, { as: me });
    expect(new Set((newer.body.items as Item[]).map((i) => i.id))).toEqual(new Set(fresh.map((f) => f.id)));

    // Latency of the same walk once the writers (and the stream work they cause) are done.
    const quiet: number[] = [];
    for (let c: string | null = null, first = true; first || c !== null; first = false) {
      const started = performance.now();
      const res: { body: { lastRangeKey: string | null } } = await api('GET', `/feed?limit=25${c ? `&before=${c}` : ''}`, { as: me });
      quiet.push(performance.now() - started);
      c = res.body.lastRangeKey;
    }
    const summary = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return `median ${s[s.length >> 1]!.toFixed(1)} ms, max ${s.at(-1)!.toFixed(1)} ms over ${s.length} pages of 25`;
    };
    console.log(`walk ${walkMs.toFixed(0)} ms (${settledOld.length}/${old.length} old posts landed during it); writers ${writersMs.toFixed(0)} ms`);
    console.log(`feed page latency (local, via the HTTP API): under concurrent posts ${summary(latencies)}; quiet ${summary(quiet)}`);
  });

  it('costs exactly one DynamoDB call per page for a push-only reader (counted on the handler SDK client)', async () => {
    const me = uid('counted');
    await pool(7, 7, (i) => postNow(me, `c${i}`));
    const commands: string[] = [];
    handlerDynamo.middlewareStack.add(
      (next, context) => async (args) => {
        commands.push(context.commandName ?? '?');
        return next(args);
      },
      { step: 'initialize', name: 'countCommands' },
    );
    try {
      const call = async (sub: string, query: Record<string, string>) => {
        const before = commands.length;
        const res = await feedRead(httpEvent({ routeKey: 'GET /feed', path: '/feed', sub, query }));
        expect(res.statusCode).toBe(200);
        return { body: JSON.parse(res.body!) as { items: Item[]; lastRangeKey: string | null }, sent: commands.slice(before) };
      };
      let page = await call(me, { limit: '3' });
      const got: string[] = [];
      let pages = 0;
      for (;;) {
        pages++;
        // Every page, the first (which brings the feed's head along) and the `before` pages (which
        // use what the first taught this function instance): one Query, nothing else.
        expect(page.sent).toEqual(['QueryCommand']);
        got.push(...page.body.items.map((i: Item) => i.id));
        if (page.body.lastRangeKey === null) break;
        page = await call(me, { limit: '3', before: page.body.lastRangeKey });
      }
      expect(pages).toBe(3); // 3 + 3 + 1: the last page knows it is last without an extra request
      expect(new Set(got).size).toBe(7);

      // A `before` page in an instance that never saw this reader reads the head in parallel.
      const cold = await call(uid('cold'), { limit: '3', before: page.body.items[0]!.rangeKey });
      expect([...cold.sent].sort()).toEqual(['GetItemCommand', 'QueryCommand']);

      // A timeline: one Query for its owner; anyone else's read also checks, in parallel, that the
      // owner has not blocked the reader (one batch read of one small item).
      const timelineAs = async (sub: string) => {
        const before = commands.length;
        const timeline = await feedRead(
          httpEvent({ routeKey: 'GET /users/{userId}/activities', path: `/users/${me}/activities`, sub, pathParameters: { userId: me } }),
        );
        expect(timeline.statusCode).toBe(200);
        expect(JSON.parse(timeline.body!).items).toHaveLength(7);
        return commands.slice(before).sort();
      };
      expect(await timelineAs(me)).toEqual(['QueryCommand']);
      expect(await timelineAs('x')).toEqual(['BatchGetItemCommand', 'QueryCommand']);
    } finally {
      handlerDynamo.middlewareStack.remove('countCommands');
    }
  });

  it('records the size and write units of a typical post', async () => {
    const me = uid('sizer');
    const res = await api('POST', '/activities', {
      as: me,
      json: {
        verb: 'post',
        object: 'photo:8f14e45f',
        content: 'Sunset over the harbour tonight — the light was unreal. Who is coming next week?'.padEnd(140, '!'),
        attributes: { likes: 0, lang: 'en', public: true },
      },
    });
    expect(res.status).toBe(201);
    const rk = BigInt(res.body.rangeKey);
    const { Item } = await doc.send(new (await import('@aws-sdk/lib-dynamodb')).GetCommand({ TableName: stack.tableNames.feed, Key: timelineKey(me, rk) }));
    const bytes = itemSize(Item!);
    // No index any more: the original costs its own write, and so does every copy.
    const original = await doc.send(
      new PutCommand({ TableName: stack.tableNames.feed, Item: { ...Item!, ...timelineKey(`${me}-o`, rk) }, ReturnConsumedCapacity: 'TOTAL' }),
    );
    const copied = await doc.send(
      new PutCommand({ TableName: stack.tableNames.feed, Item: copyItem(Item as never, `${me}-follower`), ReturnConsumedCapacity: 'TOTAL' }),
    );
    console.log(
      `typical item: ${bytes} bytes (JSON response ${JSON.stringify(res.body).length} bytes); ` +
        `original PutItem ${original.ConsumedCapacity?.CapacityUnits} WCU, copy ${copied.ConsumedCapacity?.CapacityUnits} WCU`,
    );
    expect(bytes).toBeLessThanOrEqual(1024);
    expect(copied.ConsumedCapacity?.CapacityUnits).toBe(1);
    expect(original.ConsumedCapacity?.CapacityUnits).toBe(1);
    expect(homeFeedKey(me, rk).pk).not.toBe(timelineKey(me, rk).pk);
  });
});

/** DynamoDB's documented item size: attribute names + values (strings UTF-8, numbers ~1 byte per 2 digits + 1). */
function itemSize(item: Record<string, unknown>): number {
  const value = (v: unknown): number => {
    if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
    if (typeof v === 'boolean') return 1;
    if (typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'object' && v !== null && 'value' in v)) {
      const digits = String(v)
        .replace(/^-|\.|e.*$/g, '')
        .replace(/^0+/, '').length;
      return Math.ceil(digits / 2) + 1;
    }
    if (typeof v === 'object' && v !== null) {
      return 3 + Object.entries(v).reduce((n, [k, x]) => n + Buffer.byteLength(k, 'utf8') + value(x) + 1, 0);
    }
    return 1;
  };
  return Object.entries(item).reduce((n, [k, v]) => n + Buffer.byteLength(k, 'utf8') + value(v), 0);
}
