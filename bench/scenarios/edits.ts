/**
 * Edits at 1,000 followers: write units of an edit (everything the handlers spent) against the
 * minimum of each item written once at a plain write's price (the ratio carries the original and
 * history entry's transaction), and 200 → the last copy at the new version beside the post's own
 * 201 → last copy.
 */
import { historyKey } from '../../functions/model/activity-history.js';
import { homeFeedKey } from '../../functions/model/feed-copy.js';
import { timelineKey } from '../../functions/model/timeline-item.js';
import type { BenchContext } from '../context.js';
import { waitForCopies } from '../copies.js';
import { itemSize, writeUnits } from '../dynamo-cost.js';
import { authorWithFollowers, benchActivity, now, quiesce, storedItem } from '../fixtures.js';
import { atMost, type Figure, progress, figureOf } from '../report.js';
import { median, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'edits';
const fig = figureOf(S);
const FOLLOWERS = 1000;
const REPS = 3;
/** A transactional write costs this many times a plain write's units (DynamoDB pricing). */
const TRANSACTION_PRICE = 2;

/** The write units of one stored item, as it is now. */
const unitsOf = async (ctx: BenchContext, key: Record<string, unknown>) => writeUnits(itemSize(await storedItem(ctx, ctx.stack.tableNames.feed, key)));

export const edits: Scenario = {
  id: 'edits',
  title: `an edit at ${FOLLOWERS} followers: write units vs the pricing minimum; 200 → last copy beside the post's 201 → last copy`,
  async run(ctx) {
    const { author, followers } = await authorWithFollowers(ctx, FOLLOWERS);
    const owners = [author, ...followers];
    const postMs: number[] = [];
    const editMs: number[] = [];
    const ratios: number[] = [];
    const spentNotes: string[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      progress(`  edits: run ${rep + 1}/${REPS}`);
      await quiesce(ctx, 300);
      const activity = benchActivity(3000 + rep);
      const posted = await ctx.call('POST', '/activities', author, activity);
      const t201 = now();
      if (posted.status !== 201) throw new Error(`POST /activities: ${posted.status}`);
      const rk = posted.body.rangeKey as string;
      postMs.push((await waitForCopies(ctx, [{ rk, owners: followers }])).doneAt - t201);
      await quiesce(ctx, 300);

      const before = ctx.handlerCapacity.snapshot();
      const patch = { content: activity.content.toUpperCase(), attributes: { score: activity.attributes.score + 1 } };
      const edited = await ctx.call('PATCH', `/activities/${posted.body.id}`, author, patch);
      const t200 = now();
      if (edited.status !== 200 || edited.body.version !== 2) throw new Error(`PATCH /activities: ${edited.status}`);
      editMs.push((await waitForCopies(ctx, [{ rk, owners, version: 2 }])).doneAt - t200);
      await quiesce(ctx, 300);
      const spent = ctx.handlerCapacity.since(before);

      const copyUnits = await unitsOf(ctx, homeFeedKey(followers[0]!, BigInt(rk)));
      const atomic = TRANSACTION_PRICE * ((await unitsOf(ctx, timelineKey(author, BigInt(rk)))) + (await unitsOf(ctx, historyKey(posted.body.id, 1))));
      // The minimum: each item written once at a plain write's price. The edit pays the
      // transaction's second half on top (atomic / 2 more units), and the ratio shows it.
      const minimum = owners.length * copyUnits + atomic / TRANSACTION_PRICE;
      // DynamoDB Local reports a transaction's items at a plain write's units (it undercounts
      // transactions, as migrate.ts notes): each transaction the edit sent is counted by the pricing
      // rules instead — the edit's one, the original and its history entry.
      const transactions = spent.tags.transaction ?? { calls: 0, write: 0 };
      const written = spent.write - transactions.write + transactions.calls * atomic;
      ratios.push(written / minimum);
      spentNotes.push(
        `${round(written, 1)} WCU vs a minimum of ${minimum} (${owners.length} copies × ${copyUnits} + ${atomic / TRANSACTION_PRICE} for the original and the history entry); the edit writes those two in one transaction, at ${TRANSACTION_PRICE}× the units (${atomic}); ` +
          `Local reported ${round(spent.write, 1)}, its ${transactions.calls} transaction(s) at ${round(transactions.write, 1)}); calls ${JSON.stringify(spent.calls)}`,
      );
    }
    const ratio = median(ratios);
    return [
      fig(`write units per edit / pricing minimum (one per existing copy, the original and the history entry; ${REPS} edits, p50)`, round(ratio, 3), '×', {
        ...atMost(ratio, 1.05),
        note: spentNotes[Math.floor(spentNotes.length / 2)],
      }),
      fig(`200 → last of ${owners.length} copies at the new version (p50)`, round(median(editMs)), 'ms'),
      fig(`beside it: the post's own 201 → last of ${FOLLOWERS} copies (p50)`, round(median(postMs)), 'ms'),
      fig('edit 200 → last copy / post 201 → last copy', round(median(editMs) / median(postMs)), '×', {
        note: 'an edit writes each copy with its own conditional UpdateItem (32 in flight per page); a post batches 25 copies per BatchWriteItem',
      }),
    ] satisfies Figure[];
  },
};
