/**
 * GET /rollups/{name}?from=&to=&granularity=minute|hour|day — a series' points, combining its rows
 * per interval (SUM for counts and sums, MIN/MAX for min and max). `from` (inclusive) and `to`
 * (exclusive) are RFC 3339, aligned outward to the granularity; default: the 60 intervals up to
 * now. At most 1,440 points per read; bounded work: not before the retained past (ROLLUP_TTL), not
 * more than a day ahead, at most 100 partition Queries (services/rollups/read.ts) — else 400.
 * Intervals without data are absent (sparse).
 * Business metrics: tokens with the tickfeed/admin scope only.
 */
import { readConfig } from '../../lib/defs/config.js';
import { combineOf } from '../../lib/defs/rollup-spec.js';
import { ValidationError } from '../model/errors.js';
import { alignQuery, GRANULARITY_MS, type Granularity, readSeriesPoints, retainedFrom } from '../services/rollups/read.js';
import { requireAdmin } from '../services/access.js';
import { callerOf } from '../http/caller.js';
import { httpHandler, json } from '../http/handler.js';
import type { AuthedEvent } from '../http/types.js';

const ttlMs = readConfig('ROLLUP_TTL');
const partitions = readConfig('ROLLUP_PARTITIONS');

export const handler = httpHandler<AuthedEvent>(async (event) => {
  // The authorizer requires the tickfeed/admin scope on this route (lib/defs/routes.ts); checked
  // here too, so a route misconfigured without it still serves no business metrics.
  requireAdmin(callerOf(event).admin, 'Reading rollups');
  const name = event.pathParameters?.name ?? '';
  const params = event.queryStringParameters ?? {};
  const errors: { field: string; message: string }[] = [];
  const combine = combineOf(name);
  if (!combine) errors.push({ field: 'path.name', message: 'expected <event_type>.count or <event_type>.<attribute>.sum|min|max' });
  const granularity = (params.granularity ?? 'minute') as Granularity;
  if (!Object.hasOwn(GRANULARITY_MS, granularity)) errors.push({ field: 'query.granularity', message: 'expected minute, hour or day' });
  const now = Date.now();
  const to = params.to === undefined ? now : Date.parse(params.to);
  if (Number.isNaN(to)) errors.push({ field: 'query.to', message: 'expected an RFC 3339 timestamp' });
  // Default: the 60 intervals up to `to`, but never before the retained past (an explicit `from`
  // before it is a 400: see boundedReads).
  const from =
    params.from === undefined
      ? Math.max(to - 60 * (GRANULARITY_MS[granularity] ?? 0), retainedFrom(now, ttlMs, granularity) ?? Number.NEGATIVE_INFINITY)
      : Date.parse(params.from);
  if (Number.isNaN(from)) errors.push({ field: 'query.from', message: 'expected an RFC 3339 timestamp' });
  if (errors.length) throw new ValidationError('Invalid rollup query.', errors);

  let query;
  try {
    query = alignQuery(name, combine!, granularity, from, to);
  } catch (error) {
    throw new ValidationError('Invalid rollup range.', [{ field: 'query.from', message: (error as Error).message }]);
  }
  return json(200, { name, granularity, points: await readSeriesPoints(query, now, ttlMs, partitions) });
});
