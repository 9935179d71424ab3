/**
 * The real side of the model test (issue 40): a stack of the test file's own without pollers, the
 * users' requests through its HTTP API, and the jobs those requests and the feed's stream make held
 * in a pending list that delivery commands pick from (job-tap.ts), with stale reads and faults on
 * the handlers' DynamoDB client (dynamo-sim.ts). Commands are data (`Cmd`), so a shrunk
 * counterexample prints as a list that a named regression case replays as it is.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { localCredentials, localRegion } from '../../../local/aws-local.js';
import { streamArnOf } from '../../../local/provision.js';
import { tableList } from '../../../lib/defs/index.js';
import type { Activity } from '../../../functions/model/activity.js';
import { homeFeedPartition } from '../../../functions/model/feed-copy.js';
import * as M from '../../model/home-feed-model.js';
import { httpEvent } from '../events.js';
import { uid } from '../ids.js';
import { own, stack, startOwnStack } from '../own-stack.js';
import { DynamoSim, type WriteFault } from './dynamo-sim.js';
import { delayedAt, type Job, JobTap } from './job-tap.js';

/** Universe: users 0..3, tags 0..1 (small, so that roads collide). */
export const USERS = 4;
export const TAGS = 2;
/** Low, so that an author of 2 followers is pulled and the third follower of a tag merges it. */
export const PULL_THRESHOLD = Number(process.env.MODEL_PULL_THRESHOLD ?? 2);

export type Fault = { crash: number; when: 'before' | 'after' } | { write: WriteFault };
export type Cmd =
  | { c: 'post'; u: number; tags: number[] }
  | { c: 'edit'; p: number; tags: number[] }
  | { c: 'delete'; p: number }
  | { c: 'follow' | 'unfollow' | 'mute' | 'unmute' | 'block' | 'unblock'; r: number; a: number }
  | { c: 'followTag' | 'unfollowTag'; r: number; t: number }
  | { c: 'read' | 'idle' | 'erase'; r: number }
  | { c: 'deliver'; i: number; fault?: Fault }
  | { c: 'redeliver'; i: number }
  | { c: 'lag'; n: number }
  /** Remember this instant; `asOfMark` then serves every stale read as of it, until the next `lag`. */
  | { c: 'mark' }
  | { c: 'asOfMark' }
  /** Every pending job, in order (named cases only: the generator delivers one at a time). */
  | { c: 'drain' };

interface Handles {
  sim: DynamoSim;
  tap: JobTap;
  runJob: (job: Job) => Promise<void>;
  fnDoc: import('@aws-sdk/lib-dynamodb').DynamoDBDocumentClient;
  readHead: (owner: string) => Promise<{ activeUntil?: bigint }>;
  reader: typeof import('../../../functions/model/reader-activity.js');
  activeWindowTicks: () => bigint | undefined;
  nowTicks: () => bigint;
  /** The HTTP handlers, loaded in this module graph (the API server's own loads would bypass the simulation). */
  fns: Record<'graph' | 'activities' | 'controls' | 'account' | 'feed-read' | 'ranked-feeds', (e: unknown) => Promise<unknown>>;
}
let h: Handles | undefined;

/** Starts the stack and installs the simulation on the handlers' clients (once per file). */
export async function startModelStack(): Promise<void> {
  await startOwnStack({
    persistent: false,
    sqsRetryDelaySeconds: 1,
    pollers: false,
    env: { FANOUT_PULL_THRESHOLD: String(PULL_THRESHOLD), RATE_LIMITS: 'off' },
  });
  const config = { region: localRegion, credentials: localCredentials, endpoint: stack.dynamoEndpoint };
  const side = new DynamoDBClient(config);
  const keyNames = new Map(tableList.map((t) => [stack.tableNames[t.id], [t.partitionKey.name, ...(t.sortKey ? [t.sortKey.name] : [])]]));
  const sim = new DynamoSim(side, keyNames);
  const clients = await import('../../../functions/platform/clients.js');
  sim.install(clients.dynamo);
  const { jobsOfRecord } = await import('../../../functions/services/jobs/outbox-jobs.js');
  const tap = new JobTap(new DynamoDBStreamsClient(config), await streamArnOf(side, stack.tableNames.feed), jobsOfRecord, () => sim.markNow());
  tap.install(clients.sqs);
  await tap.take(); // whatever the stack's start wrote
  const { runJob } = await import('../../../functions/services/jobs/run.js');
  const { readHead } = await import('../../../functions/stores/feed-store.js');
  h = {
    sim,
    tap,
    runJob: runJob as never,
    fnDoc: clients.doc,
    readHead,
    reader: await import('../../../functions/model/reader-activity.js'),
    activeWindowTicks: (await import('../../../functions/services/reader-activity/window.js')).activeWindowTicks,
    nowTicks: (await import('../../../functions/platform/clock.js')).nowTicks,
    fns: {
      graph: (await import('../../../functions/handlers/graph.js')).handler as never,
      activities: (await import('../../../functions/handlers/activities.js')).handler as never,
      controls: (await import('../../../functions/handlers/controls.js')).handler as never,
      account: (await import('../../../functions/handlers/account.js')).handler as never,
      'feed-read': (await import('../../../functions/handlers/feed-read.js')).handler as never,
      'ranked-feeds': (await import('../../../functions/handlers/ranked-feeds.js')).handler as never,
    },
  };
}

interface FeedItem {
  id: string;
  version?: number;
  actor: string;
}

/** One run's real world: fresh users and tags, the posts' ids, pending and finished jobs. */
export class World {
  readonly users = Array.from({ length: USERS }, (_, i) => uid(`m${i}`));
  readonly tags = Array.from({ length: TAGS }, (_, i) => `t${i}${uid('').replace(/-/g, '')}`);
  readonly posts: { id: string; rk: string }[] = [];
  pending: Job[] = [];
  done: Job[] = [];
  /** Jobs a mute or block queued, per `reader>author` pair hidden: its hiding holds once they ran. */
  readonly hiding = new Map<string, Job[]>();
  readonly log: string[] = [];
  readonly m = M.emptyModel(PULL_THRESHOLD);
  /** The instant a `mark` command remembered (the run's start until one does). */
  private mark: number;

  constructor() {
    this.mark = h!.sim.markNow();
  }

  private get h(): Handles {
    return h!;
  }
  name = (i: number) => `u${i}`;
  user = (name: M.User) => this.users[Number(name.slice(1))]!;
  tag = (i: number) => this.tags[i]!;

  static async start(): Promise<World> {
    const w = new World();
    h!.sim.lag = 0;
    h!.sim.asOf = undefined;
    h!.sim.scope = undefined;
    await h!.tap.take(); // a failed run's leftovers are not this run's
    return w;
  }

  /**
   * A self-check of the shadow, through the handlers' own document client: an item written, updated,
   * then read one write late (`stale`) and strongly consistent (`fresh`); deleted, then its
   * partition queried one write late (`deletedSince`: the image before the delete).
   */
  async shadowSelfCheck(): Promise<{ stale: string; fresh: string; deletedSince: string[] }> {
    const { fnDoc, sim } = this.h;
    const TableName = stack.tableNames.graph;
    const Key = { pk: `simcheck#${uid('s')}`, sk: 'a' };
    // As of a remembered instant (asOf), not `lag` writes ago: another run's writes may land meanwhile.
    await fnDoc.send(new PutCommand({ TableName, Item: { ...Key, v: 1 } }));
    const afterPut = sim.markNow();
    await fnDoc.send(new UpdateCommand({ TableName, Key, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': 2 } }));
    const afterUpdate = sim.markNow();
    const { floor } = sim;
    try {
      sim.floor = 0; // a settle re-run delivered earlier moved it; this check reads before it on purpose
      sim.asOf = afterPut;
      const stale = String((await fnDoc.send(new GetCommand({ TableName, Key }))).Item?.v);
      const fresh = String((await fnDoc.send(new GetCommand({ TableName, Key, ConsistentRead: true }))).Item?.v);
      sim.asOf = undefined;
      await fnDoc.send(new DeleteCommand({ TableName, Key }));
      sim.asOf = afterUpdate;
      const query = new QueryCommand({ TableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': Key.pk } });
      const deletedSince = ((await fnDoc.send(query)).Items ?? []).map((i) => String(i.v));
      return { stale, fresh, deletedSince };
    } finally {
      sim.asOf = undefined;
      sim.floor = Math.max(floor, sim.floor);
    }
  }

  /** Whether the command can be issued in the model's state (fast-check's `check`). */
  allowed(c: Cmd): boolean {
    const alive = (u: number) => !this.m.erased.has(this.name(u));
    switch (c.c) {
      case 'post':
        return alive(c.u);
      case 'edit':
      case 'delete': {
        const p = this.postOf(c.p);
        return p !== undefined && !p.deleted && alive(Number(p.author.slice(1)));
      }
      case 'follow':
      case 'unfollow':
      case 'mute':
      case 'unmute':
      case 'block':
      case 'unblock':
        return c.r !== c.a && alive(c.r) && alive(c.a);
      case 'followTag':
      case 'unfollowTag':
      case 'read':
      case 'idle':
      case 'erase':
        return alive(c.r);
      default:
        return true;
    }
  }

  async run(c: Cmd): Promise<void> {
    this.log.push(JSON.stringify(c));
    const t0 = performance.now();
    await this.apply(c);
    const t1 = performance.now();
    this.pending.push(...(await this.h.tap.take()));
    if (process.env.MODEL_TRACE)
      console.log(`${JSON.stringify(c)} ${(t1 - t0).toFixed(0)} ms + take ${(performance.now() - t1).toFixed(0)} ms; stale answers ${this.h.sim.staleAnswers}`);
  }

  /** A command's post: its index modulo the posts made so far (so every shrunk index still names one). */
  postIndex = (p: number) => (this.m.posts.length ? p % this.m.posts.length : -1);
  postOf = (p: number) => this.m.posts[this.postIndex(p)];

  /** A user's request, through its handler in-process (test/support/events.ts). */
  private async call(
    fn: keyof Handles['fns'],
    route: string,
    path: string,
    as: number,
    params: Record<string, string> = {},
    body?: unknown,
    contentType = 'application/json',
  ) {
    const res = (await this.h.fns[fn](
      httpEvent({
        routeKey: route,
        path,
        sub: this.users[as]!,
        pathParameters: params,
        ...(route.startsWith('GET') ? { query: { limit: '100' } } : {}),
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': contentType } }),
      }),
    )) as { statusCode: number; body?: string };
    return { status: res.statusCode, text: res.body ?? '', body: res.body ? (JSON.parse(res.body) as unknown) : undefined };
  }

  private content = (tags: number[]) => `post ${[...new Set(tags)].map((t) => `#${this.tag(t)}`).join(' ')}`;

  private async apply(c: Cmd): Promise<void> {
    const { m } = this;
    switch (c.c) {
      case 'post': {
        const res = await this.call('activities', 'POST /activities', '/activities', c.u, {}, { verb: 'post', content: this.content(c.tags) });
        expect(res.status, res.text).toBe(201);
        const a = res.body as Activity;
        this.posts.push({ id: a.id, rk: String(a.rangeKey) });
        M.post(m, this.name(c.u), [...new Set(c.tags)].map(String));
        return;
      }
      case 'edit': {
        const n = this.postIndex(c.p);
        const p = m.posts[n]!;
        const id = this.posts[n]!.id;
        const sent = await this.call(
          'activities',
          'PATCH /activities/{id}',
          `/activities/${id}`,
          Number(p.author.slice(1)),
          { id },
          { content: `edited ${this.content(c.tags)}` },
          'application/merge-patch+json',
        );
        expect(sent.status, sent.text).toBe(200);
        M.edit(m, p, [...new Set(c.tags)].map(String), Number((sent.body as Activity).version));
        return;
      }
      case 'delete': {
        const n = this.postIndex(c.p);
        const p = m.posts[n]!;
        const id = this.posts[n]!.id;
        const res = await this.call('activities', 'DELETE /activities/{id}', `/activities/${id}`, Number(p.author.slice(1)), { id });
        expect(res.status, res.text).toBe(204);
        M.remove(m, p);
        return;
      }
      case 'follow': {
        const res = await this.call('graph', 'PUT /following/{userId}', `/following/${this.users[c.a]}`, c.r, { userId: this.users[c.a]! });
        const expected = M.follow(m, this.name(c.r), this.name(c.a));
        expect(res.status, res.text).toBe(expected === 'followed' ? 204 : 403);
        return;
      }
      case 'unfollow':
        expect((await this.call('graph', 'DELETE /following/{userId}', `/following/${this.users[c.a]}`, c.r, { userId: this.users[c.a]! })).status).toBe(204);
        M.unfollow(m, this.name(c.r), this.name(c.a));
        return;
      case 'followTag':
        expect((await this.call('graph', 'PUT /following/tags/{tag}', `/following/tags/${this.tag(c.t)}`, c.r, { tag: this.tag(c.t) })).status).toBe(204);
        M.followTag(m, this.name(c.r), String(c.t));
        return;
      case 'unfollowTag':
        expect((await this.call('graph', 'DELETE /following/tags/{tag}', `/following/tags/${this.tag(c.t)}`, c.r, { tag: this.tag(c.t) })).status).toBe(204);
        M.unfollowTag(m, this.name(c.r), String(c.t));
        return;
      case 'mute':
      case 'unmute':
      case 'block':
      case 'unblock': {
        const on = c.c === 'mute' || c.c === 'block';
        const what = c.c === 'mute' || c.c === 'unmute' ? 'mutes' : 'blocks';
        expect(
          (await this.call('controls', `${on ? 'PUT' : 'DELETE'} /${what}/{userId}`, `/${what}/${this.users[c.a]}`, c.r, { userId: this.users[c.a]! })).status,
        ).toBe(204);
        if (what === 'mutes') M.mute(m, this.name(c.r), this.name(c.a), on);
        else M.block(m, this.name(c.r), this.name(c.a), on);
        if (on) {
          const queued = await this.h.tap.take();
          this.pending.push(...queued);
          this.hiding.set(`${c.r}>${c.a}`, queued);
          if (what === 'blocks') this.hiding.set(`${c.a}>${c.r}`, queued);
        }
        return;
      }
      case 'read':
        await this.checkSafety(c.r);
        return;
      case 'idle':
        await this.goIdle(c.r);
        return;
      case 'erase':
        expect((await this.call('account', 'DELETE /me', '/me', c.r)).status).toBe(202);
        M.erase(m, this.name(c.r));
        return;
      case 'deliver':
        if (this.pending.length) await this.deliver(c.i % this.pending.length, c.fault);
        return;
      case 'redeliver':
        if (this.done.length) await this.runOne(this.done[c.i % this.done.length]!);
        return;
      case 'lag':
        this.h.sim.lag = c.n;
        this.h.sim.asOf = undefined;
        return;
      case 'mark':
        this.mark = this.h.sim.markNow();
        return;
      case 'asOfMark':
        this.h.sim.asOf = this.mark;
        return;
      case 'drain':
        await this.fresh(() => this.drain());
        return;
    }
  }

  /** Runs one job; true if it finished. A crash or fault leaves it pending (SQS would redeliver it). */
  private async runOne(job: Job, fault?: Fault): Promise<boolean> {
    const { sim } = this.h;
    // A settle re-run runs CONTROL_SETTLE after its send: no read from now on is older than that send.
    const sentAt = delayedAt.get(job);
    if (sentAt !== undefined) sim.floor = Math.max(sim.floor, sentAt);
    sim.scope = {
      calls: 0,
      crashed: false,
      ...(fault && 'crash' in fault ? { crashAt: { k: fault.crash, when: fault.when } } : {}),
      ...(fault && 'write' in fault ? { writeFault: fault.write } : {}),
    };
    try {
      await this.h.runJob(job);
      return true;
    } catch (error) {
      if (!fault) throw new Error(`a ${job.kind} job failed without a fault: ${(error as Error).message}`, { cause: error });
      return false;
    } finally {
      await sim.settle();
      sim.scope = undefined;
    }
  }

  private async deliver(i: number, fault?: Fault): Promise<void> {
    const job = this.pending[i]!;
    if (await this.runOne(job, fault)) {
      this.pending.splice(i, 1);
      this.done.push(job);
    }
  }

  /** Writes a passed activity bound where a stamp puts one (reader-activity.test.ts setBound): the reader went idle. */
  private async goIdle(r: number): Promise<void> {
    const { fnDoc } = this.h;
    const reader = this.users[r]!;
    const until = this.h.nowTicks() - 1_000_000_000n;
    const graph = stack.tableNames.graph;
    const set = (Key: Record<string, unknown>, table = graph) =>
      fnDoc
        .send(
          new UpdateCommand({
            TableName: table,
            Key,
            UpdateExpression: 'SET activeUntil = :u',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':u': until },
          }),
        )
        .catch((e: Error) => {
          if (e.name !== 'ConditionalCheckFailedException') throw e;
        });
    const { followEdgeKey, parseEdge } = await import('../../../functions/model/follow-edge.js');
    const { followListKey } = await import('../../../functions/model/follow-lists.js');
    const { tagFollowerKey } = await import('../../../functions/model/tag-items.js');
    const { tagKeyOf } = await import('../../../functions/model/tags.js');
    const { feedHeadKey } = await import('../../../functions/model/feed-head.js');
    for (const followee of this.users) {
      const { Item } = await fnDoc.send(new GetCommand({ TableName: graph, Key: followEdgeKey(reader, followee), ConsistentRead: true }));
      const edge = parseEdge(Item);
      if (edge) await set(followListKey('followers', followee, edge.order, reader));
    }
    for (const t of this.tags) await set(tagFollowerKey(tagKeyOf(t), reader));
    await fnDoc.send(
      new UpdateCommand({
        TableName: stack.tableNames.feed,
        Key: feedHeadKey(reader),
        UpdateExpression: 'SET activeUntil = :u',
        ExpressionAttributeValues: { ':u': until },
      }),
    );
  }

  /** `r`'s first page (limit 100), read with no lag. */
  page(r: number): Promise<FeedItem[]> {
    return this.fresh(async () => {
      const res = await this.call('feed-read', 'GET /feed', '/feed', r);
      expect(res.status, res.text).toBe(200);
      return (res.body as { items: FeedItem[] }).items;
    });
  }

  /**
   * `r`'s first page of a ranked feed of their own over their home feed (`following`; issue 42: a
   * ranked page holds nothing the chronological feed and followed tags may not show), read with no lag.
   */
  rankedPage(r: number): Promise<FeedItem[]> {
    return this.fresh(async () => {
      const feedId = `m${r}-${this.users[r]!.slice(-8)}`.toLowerCase();
      const body = { sources: [{ type: 'following', windowHours: 24, limit: 100 }], expression: '0 - age' };
      const put = await this.call('ranked-feeds', 'PUT /feeds/{feedId}', `/feeds/${feedId}`, r, { feedId }, body);
      expect(put.status, put.text).toBe(200);
      const res = await this.call('ranked-feeds', 'GET /feeds/{feedId}/activities', `/feeds/${feedId}/activities`, r, { feedId });
      expect(res.status, res.text).toBe(200);
      return (res.body as { items: FeedItem[] }).items;
    });
  }

  /** Runs `fn` with every read as DynamoDB Local answers it, then puts the stale-read setting back. */
  private async fresh<T>(fn: () => Promise<T>): Promise<T> {
    const { sim } = this.h;
    const { lag, asOf } = sim;
    sim.lag = 0;
    sim.asOf = undefined;
    try {
      return await fn();
    } finally {
      sim.lag = lag;
      sim.asOf = asOf;
    }
  }
  /** `r`'s stored copies: rk → version. */
  async stored(r: number): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const res = await own.doc.send(
        new QueryCommand({
          TableName: stack.tableNames.feed,
          KeyConditionExpression: 'pk = :pk AND rk > :h',
          ExpressionAttributeValues: { ':pk': homeFeedPartition(this.users[r]!), ':h': 0 },
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      );
      for (const i of res.Items ?? []) out.set(String(i.rk), Number(String(i.version ?? 1)));
      ExclusiveStartKey = res.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return out;
  }

  private postOfId = (id: string) => this.posts.findIndex((p) => p.id === id);
  private postOfRk = (rk: string) => this.posts.findIndex((p) => p.rk === rk);
  private ran = (jobs: readonly Job[]) => jobs.every((j) => this.done.includes(j));

  /** Safety during the run: no post twice; no post of an author hidden by a mute or block whose jobs ran; no deleted post whose retract ran. */
  async checkSafety(r: number): Promise<void> {
    const items = await this.page(r);
    const ids = items.map((i) => i.id);
    expect(new Set(ids).size, `a post twice on ${this.name(r)}'s page`).toBe(ids.length);
    for (const item of items) {
      const n = this.postOfId(item.id);
      if (n < 0) continue; // not a post of this run: impossible, reported by the final check
      const p = this.m.posts[n]!;
      const a = Number(p.author.slice(1));
      const hide = this.hiding.get(`${r}>${a}`);
      if (M.hidden(this.m, this.name(r), p.author) && hide && this.ran(hide)) {
        throw new Error(`safety: ${this.name(r)}'s page shows post ${n} of ${p.author}, hidden by a mute or block whose jobs all ran`);
      }
      const retracts = this.done.filter((j) => (j.kind === 'retract' || j.kind === 'tagRetract') && String(j.rk) === this.posts[n]!.rk);
      const left = this.pending.some((j) => (j.kind === 'retract' || j.kind === 'tagRetract') && String(j.rk) === this.posts[n]!.rk);
      if (p.deleted && retracts.some((j) => j.kind === 'retract') && !left) {
        throw new Error(`safety: ${this.name(r)}'s page shows deleted post ${n} after its retract jobs ran`);
      }
    }
  }

  /** Delivers every pending job, no lag, no faults, until none is left (bounded). */
  async drain(): Promise<void> {
    this.h.sim.lag = 0;
    this.h.sim.asOf = undefined;
    for (let n = 0; this.pending.length; n++) {
      if (n > 2000) throw new Error('drain: more than 2000 jobs');
      await this.deliver(0);
      this.pending.push(...(await this.h.tap.take()));
    }
  }

  /**
   * The final check: after a fault-free drain, each reader's read (queueing the stamp a returning
   * reader's read queues a minute later, if this process asked too recently) and a drain again,
   * every live reader's first page and stored feed against the model.
   */
  async checkFinal(): Promise<void> {
    await this.drain();
    for (let r = 0; r < USERS; r++) {
      if (this.m.erased.has(this.name(r))) continue;
      await this.page(r);
      const reader = this.users[r]!;
      const head = await this.h.readHead(reader);
      const now = this.h.nowTicks();
      const since = this.h.reader.missingSince(head.activeUntil, now);
      if (since !== undefined) {
        this.pending.push({ kind: 'stamp', reader, until: String(this.h.reader.stampBound(now, this.h.activeWindowTicks())), since: String(since) });
      }
    }
    this.pending.push(...(await this.h.tap.take()));
    await this.drain();
    const problems: string[] = [];
    for (let r = 0; r < USERS; r++) {
      const who = this.name(r);
      if (this.m.erased.has(who)) continue;
      const expected = M.expectedFeed(this.m, who);
      const want = expected.filter((e) => !e.optional).map((e) => `${e.post.n}@v${e.post.version}`);
      const optional = new Set(expected.filter((e) => e.optional).map((e) => `${e.post.n}@v${e.post.version}`));
      const page = (await this.page(r)).map((i) => `${this.postOfId(i.id)}@v${i.version ?? 1}`);
      const got = page.filter((x) => !optional.has(x));
      const order = page.map((x) => Number(x.split('@')[0]));
      if (JSON.stringify(got) !== JSON.stringify(want) || order.some((n, i) => i > 0 && n >= order[i - 1]!)) {
        problems.push(
          `${who}'s page: got [${page.join(', ')}], the model wants [${want.join(', ')}]${optional.size ? ` (and may have ${[...optional].join(', ')})` : ''}`,
        );
      }
      const shown = new Map(expected.map((e) => [e.post.n, e]));
      const rankedItems = await this.rankedPage(r);
      if (process.env.MODEL_TRACE) console.log(`ranked ${who}: ${rankedItems.length} items`);
      // Both ways: the ranked page over the home feed holds every post the model requires too.
      const rankedGot = new Set(rankedItems.map((i) => `${this.postOfId(i.id)}@v${i.version ?? 1}`));
      const missing = want.filter((x) => !rankedGot.has(x));
      if (missing.length) problems.push(`${who}'s ranked page lacks [${missing.join(', ')}]`);
      for (const item of rankedItems) {
        const e = shown.get(this.postOfId(item.id));
        if (!e) problems.push(`${who}'s ranked page shows post ${this.postOfId(item.id)}, which the model does not show`);
        else if ((item.version ?? 1) !== e.post.version)
          problems.push(`${who}'s ranked page shows post ${e.post.n} at v${item.version ?? 1}, not v${e.post.version}`);
      }
      const stored = await this.stored(r);
      for (const [rk, version] of stored) {
        const n = this.postOfRk(rk);
        const e = shown.get(n);
        if (!e) problems.push(`${who} stores a copy of post ${n} that the model does not show`);
        else if (e.mustStore && version !== e.post.version) problems.push(`${who} stores post ${n} at v${version}, not v${e.post.version}`);
      }
      for (const e of expected) {
        if (e.mustStore && !stored.has(this.posts[e.post.n]!.rk)) problems.push(`${who} lacks a stored copy of post ${e.post.n} (a push road brings it)`);
      }
    }
    if (problems.length) throw new Error(`the feeds diverge from the model:\n  ${problems.join('\n  ')}`);
  }
}
