/**
 * Scenario — cost. Consumed capacity (ReturnConsumedCapacity on the handlers' own client) per
 * post, per follower copy, per page and per trim, next to the minimum DynamoDB's documented rules
 * allow for the same items (bench/dynamo-cost.ts, sizes of the items actually stored), and
 * dollars per million posts at 200 followers each at on-demand prices. Each operation is measured
 * with the handlers otherwise quiet; the meter's call classifier (bench/context.ts) says where
 * the units went. One file per measurement; the minimums (the data model in docs/data-model.md):
 *  - posting.ts: a POST writes the original in the author's timeline + the author's own copy; a
 *    follower copy, its own write; the follower list is read once per post (reported apart);
 *  - pages.ts: a push-only page is one Query reading limit + 1 copies (+ the head on a first page);
 *  - trims.ts: a trim deletes what it deletes and reads those items' keys once (a Query is
 *    charged by the full size of every item it reads, projection or not);
 *  - dollars.ts: the post and its copies together, with empty and with full feeds.
 */
import type { Figure } from '../../report.js';
import type { Scenario } from '../scenario.js';
import { dollarFigures } from './dollars.js';
import { FOLLOWERS } from './figures.js';
import { pageCost } from './pages.js';
import { postCost } from './posting.js';
import { trimCost } from './trims.js';

export const cost: Scenario = {
  id: 'cost',
  title: `capacity per post / copy / page / trim vs the pricing-rule minimum; $ per million posts at ${FOLLOWERS} followers`,
  async run(ctx) {
    const figures: Figure[] = [];
    const posting = await postCost(ctx, figures);
    figures.push(...(await pageCost(ctx)));
    const steady = await trimCost(ctx, figures);
    return [...figures, ...dollarFigures(posting, steady)];
  },
};
