/**
 * Waiting for a post's copies, so "delivered" means one thing in every scenario: keys-only
 * BatchGetItem of a sample first (cheap while the fan-out runs), then of every copy. An edit's
 * copy counts once it holds the edit's `version`.
 */
import { type AttributeValue, BatchGetItemCommand, type BatchGetItemCommandOutput } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { homeFeedKey } from '../functions/model/feed-copy.js';
import { fanoutBacklog } from '../local/queue-depth.js';
import type { BenchContext } from './context.js';
import { now, sleep } from './fixtures.js';
import { pool } from './stats.js';

/** A post's copy (range key `rk`) and the owners whose home feeds must hold it. */
export interface Delivery {
  readonly rk: string;
  readonly owners: readonly string[];
  /** A copy counts only at this version or later (an edit's); absent: any copy. */
  readonly version?: number;
}

/** Which of `owners` have no home-feed copy at `rk` yet (at `version`, if given). */
export async function missingCopies(ctx: BenchContext, owners: readonly string[], rk: string, version?: number): Promise<string[]> {
  const table = ctx.stack.tableNames.feed;
  const found = new Set<string>();
  const ownerOf = new Map(owners.map((o) => [homeFeedKey(o, BigInt(rk)).pk, o]));
  const chunks: string[][] = [];
  for (let i = 0; i < owners.length; i += 100) chunks.push(owners.slice(i, i + 100));
  await pool(chunks.length, 4, async (c) => {
    let keys: Record<string, AttributeValue>[] | undefined = chunks[c]!.map((owner) => marshall(homeFeedKey(owner, BigInt(rk))));
    for (let attempt = 0; keys?.length && attempt < 20; attempt++) {
      const out: BatchGetItemCommandOutput = await ctx.dynamo.send(
        new BatchGetItemCommand({ RequestItems: { [table]: { Keys: keys, ProjectionExpression: 'pk, #v', ExpressionAttributeNames: { '#v': 'version' } } } }),
      );
      for (const item of out.Responses?.[table] ?? []) {
        if (version === undefined || Number(item.version?.N ?? 1) >= version) found.add(ownerOf.get(item.pk!.S!)!);
      }
      keys = out.UnprocessedKeys?.[table]?.Keys;
    }
  });
  return owners.filter((o) => !found.has(o));
}

/** Which of `deliveries` still miss a copy (by owner), 8 posts at a time. */
async function stillMissing(ctx: BenchContext, deliveries: readonly Delivery[]): Promise<Delivery[]> {
  const out: Delivery[] = [];
  for (let i = 0; i < deliveries.length; i += 8) {
    const part = deliveries.slice(i, i + 8);
    const missing = await Promise.all(part.map((d) => missingCopies(ctx, d.owners, d.rk, d.version)));
    part.forEach((d, j) => missing[j]!.length && out.push({ ...d, owners: missing[j]! }));
  }
  return out;
}

/** The sample polled first: of many posts the last 16 and every (n/8)-th; of each, 16 owners spread over the list and the last one. */
function sampleOf(deliveries: readonly Delivery[]): Delivery[] {
  const posts = deliveries.length > 24 ? [...deliveries.slice(-16), ...deliveries.filter((_, i) => i % Math.ceil(deliveries.length / 8) === 0)] : deliveries;
  return posts.map(({ rk, owners, version }) => ({
    ...(version === undefined ? {} : { version }),
    rk,
    owners:
      owners.length <= 17 ? owners : [...new Set([...Array.from({ length: 16 }, (_, i) => owners[Math.floor((i * owners.length) / 16)]!), owners.at(-1)!])],
  }));
}

/** Copies in `deliveries` (owners summed over posts). */
const copiesIn = (deliveries: readonly Delivery[]) => deliveries.reduce((n, d) => n + d.owners.length, 0);

export interface Delivered {
  /**
   * With `lanesEmpty`, when the poll round started that found every copy and the lanes empty before
   * and after it; without, when the poll that found the last copy ended (jobs may write meanwhile).
   */
  readonly doneAt: number;
  /** When the first poll that found a copy ended (the fan-out had started); `doneAt` if none was missing. */
  readonly firstAt: number;
}

/**
 * Polls every `pollMs` until every delivery's copies are present; with `lanesEmpty` (the default)
 * also until the job lanes are empty (the copies prove the outbox queued the jobs; the empty lanes,
 * that they are done). A probe under load passes `lanesEmpty: false`. Throws after `timeoutMs`.
 */
export async function waitForCopies(
  ctx: BenchContext,
  deliveries: readonly Delivery[],
  { lanesEmpty = true, pollMs = 20, timeoutMs = 120_000 } = {},
): Promise<Delivered> {
  const deadline = now() + timeoutMs;
  let pendingSample = sampleOf(deliveries);
  let pending = [...deliveries];
  let firstAt: number | undefined;
  const lanesBusy = async () => lanesEmpty && (await fanoutBacklog(ctx)) > 0;
  while (now() < deadline) {
    const startedAt = now();
    if (!(await lanesBusy())) {
      const before = copiesIn(pendingSample);
      if (pendingSample.length) pendingSample = await stillMissing(ctx, pendingSample);
      if (copiesIn(pendingSample) < before) firstAt ??= now();
      if (pendingSample.length === 0) {
        if (pending.length) pending = await stillMissing(ctx, pending);
        if (pending.length === 0 && !(await lanesBusy())) {
          const doneAt = lanesEmpty ? startedAt : now();
          return { doneAt, firstAt: firstAt ?? doneAt };
        }
      }
    }
    await sleep(pollMs);
  }
  throw new Error(`copies not delivered after ${timeoutMs} ms (${copiesIn(pending)} of ${pending.length} posts not seen yet)`);
}
