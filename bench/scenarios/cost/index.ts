/**
 * Scenario — cost. Consumed capacity (ReturnConsumedCapacity on the handlers' own client) per
 * post, per follower copy, per page and per trim, each measured with the handlers otherwise quiet,
 * next to the minimum DynamoDB's documented rules allow for the items as stored (bench/dynamo-cost.ts):
 *  - posting.ts: a POST writes the original in the author's timeline + the author's own copy; a
 *    follower copy, its own write; the follower list is read once per post (reported apart);
 *  - pages.ts: a push-only page is one Query reading limit + 1 copies (+ the head on a first page);
 *  - trims.ts: a trim deletes what it deletes and reads those items' keys once (a Query is
 *    charged by the full size of every item it reads, projection or not);
 *  - here: dollars per million posts at 200 followers, with empty and with full feeds.
 */
import { dollars, onDemand } from '../../dynamo-cost.js';
import { atMost, type Figure, figureOf } from '../../report.js';
import { round } from '../../stats.js';
import type { Scenario } from '../scenario.js';
import { FOLLOWERS, S } from './figures.js';
import { pageCost } from './pages.js';
import { type PostingCost, postCost } from './posting.js';
import { type SteadyTrim, trimCost } from './trims.js';

const fig = figureOf(S);

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

/** Dollars per million posts at FOLLOWERS followers: the post with its copies, with empty and with full feeds. */
function dollarFigures(p: PostingCost, steady: SteadyTrim): Figure[] {
  const prices = `$${onDemand.dollarsPerMillionWrites}/M write units, $${onDemand.dollarsPerMillionReads}/M read units, on-demand`;
  const meter = dollars(1e6, p.measured.wcu, p.measured.rcu);
  const min = dollars(1e6, p.minimum.wcu, p.minimum.rcu);
  // Full feeds: each of a post's copies is later deleted by a count trim, which also reads.
  const full = dollars(1e6, p.measured.wcu + p.copies * steady.wcuPerDeleted, p.measured.rcu + p.copies * steady.rcuPerDeleted);
  const fullMin = dollars(1e6, p.minimum.wcu + p.copies * steady.minWcuPerDeleted, p.minimum.rcu + p.copies * steady.minRcuPerDeleted);
  return [
    fig(`$ per million posts at ${FOLLOWERS} followers (meter; ${prices})`, round(meter, 2), '$'),
    fig(`$ per million posts at ${FOLLOWERS} followers (rule minimum)`, round(min, 2), '$'),
    fig(`$ per million posts at ${FOLLOWERS} followers: meter / rule minimum`, round(meter / min, 3), '× min', {
      ...atMost(meter / min, 1.05, '× min'),
      note: `per post: meter ${round(p.measured.wcu, 2)} WCU + ${round(p.measured.rcu, 2)} RCU vs minimum ${round(p.minimum.wcu, 2)} WCU + ${round(p.minimum.rcu, 2)} RCU; trim attempts ${round(p.trimAttemptsPerPost, 2)} per post, ${round(p.trimRcuPerPost, 2)} RCU per post (in the meter figure)`,
    }),
    fig(
      `$ per million posts at ${FOLLOWERS} followers with full feeds (projection: + each of the ${p.copies} copies deleted by a count trim, at the amortized trim cost above): meter $${round(full, 2)} vs rule minimum $${round(fullMin, 2)}`,
      round(full / fullMin, 3),
      '× min',
      {
        ...atMost(full / fullMin, 1.05, '× min'),
        note: `per deleted copy: trims ${round(steady.wcuPerDeleted, 3)} WCU + ${round(steady.rcuPerDeleted, 3)} RCU vs minimum ${round(steady.minWcuPerDeleted, 3)} WCU + ${round(steady.minRcuPerDeleted, 3)} RCU`,
      },
    ),
  ];
}
