/**
 * getRollupSeries (?from=&to=&granularity=minute|hour|day): a series' points, combining its rows
 * per interval (SUM for counts and sums, MIN/MAX for min and max). `from` (inclusive) and `to`
 * (exclusive) are RFC 3339, aligned outward to the granularity; default: the 60 intervals up to
 * now. At most 1,440 points per read; bounded work: not before the retained past (ROLLUP_TTL), not
 * more than a day ahead, at most 100 partition Queries (services/rollups/read-series.ts) — else 400.
 * Intervals without data are absent (sparse).
 * Business metrics: tokens with the tickfeed/admin scope only (the route's access: the authorizer
 * checks it, and handler.ts again, so a route misconfigured without it still serves none).
 */
import { setting } from '../../lib/defs/config.js';
import { combineOf } from '../../lib/defs/rollup-spec.js';
import { ValidationError } from '../model/domain-errors.js';
import { alignQuery, GRANULARITY_MS, readSeriesPoints, retainedFrom } from '../services/rollups/read-series.js';
import { json, routes } from '../http/handler.js';

export const handler = routes('rollupsRead', {
  getRollupSeries: async ({ path, query: params }) => {
    // The schemas admit only series names combineOf reads and RFC 3339 times Date.parse reads.
    const { name } = path;
    const granularity = params.granularity ?? 'minute';
    const now = Date.now();
    const to = params.to === undefined ? now : Date.parse(params.to);
    // Default: the 60 intervals up to `to`, but never before the retained past (an explicit `from`
    // before it is a 400: see boundedReads).
    const from =
      params.from === undefined
        ? Math.max(to - 60 * GRANULARITY_MS[granularity], retainedFrom(now, setting('ROLLUP_TTL'), granularity) ?? Number.NEGATIVE_INFINITY)
        : Date.parse(params.from);

    let query;
    try {
      query = alignQuery(name, combineOf(name)!, granularity, from, to);
    } catch (error) {
      throw new ValidationError('Invalid rollup range.', [{ field: 'query.from', message: (error as Error).message }]);
    }
    return json(200, { name, granularity, points: await readSeriesPoints(query, now, setting('ROLLUP_TTL'), setting('ROLLUP_PARTITIONS')) });
  },
});
