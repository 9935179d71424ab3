/**
 * Scenario — limits. What the per-caller rate limiter (RATE_LIMITS) costs per request, measured on
 * the limiter itself in this process with the deployment's default limits and a frozen clock (the
 * bench stack runs with RATE_LIMITS off, so no other scenario pays for it): DynamoDB calls to the
 * limits table per request for a person (within the Lambda instance's own allowance), for a script
 * (one conditional UpdateItem per lease of 20), for a refused request, and none without limits.
 * Write units by the pricing rules: 1 per UpdateItem of an item under 1 KB, failed conditions included.
 */
import { readConfig } from '../../lib/defs/config.js';
import { DEFAULT_RATE_LIMITS, parseRateLimits } from '../../lib/defs/rate-limits.js';
import type { BenchContext } from '../context.js';
import { uid } from '../fixtures.js';
import type { Figure } from '../report.js';
import { round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'limits';

export const limits: Scenario = {
  id: 'limits',
  title: 'Per-caller rate limits: DynamoDB units per request',
  async run(ctx: BenchContext) {
    const service = await import('../../functions/services/rate-limits.js');
    const { dynamo } = await import('../../functions/platform/clients.js');
    const table = ctx.stack.tableNames.limits;
    const calls = { writes: 0, reads: 0 };
    const name = 'benchLimitsCalls';
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if ((args.input as { TableName?: string }).TableName === table) {
          if (/Update|Put|Delete/.test(String(context.commandName))) calls.writes += 1;
          else calls.reads += 1;
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    const restoreClock = service.setRateLimitClock(() => frozen);
    const frozen = Date.now();
    const defaults = parseRateLimits(DEFAULT_RATE_LIMITS)!;
    const reads = defaults.reads;
    const figures: Figure[] = [];
    const per = (n: number, requests: number) => round(n / requests, 3);
    try {
      // A person: a handful of reads on one instance — within its own allowance (a tenth of 600).
      let before = { ...calls };
      const person = uid('limits-person');
      for (let i = 0; i < 30; i++) await service.admit(person, 'reads', defaults);
      figures.push(
        {
          scenario: S,
          metric: 'a person (30 reads): write units per request on the limits table',
          value: per(calls.writes - before.writes, 30),
          unit: 'WCU',
          target: '0',
          met: calls.writes === before.writes,
        },
        { scenario: S, metric: 'read units per request, any caller', value: calls.reads, unit: 'RCU', target: '0', met: calls.reads === 0 },
      );

      // A script: the whole burst of reads at once (600 shared + 60 of the instance's own).
      before = { ...calls };
      const script = uid('limits-script');
      const burst = reads.burst + Math.floor(reads.burst / 10);
      for (let i = 0; i < burst; i++) await service.admit(script, 'reads', defaults);
      const scriptWrites = calls.writes - before.writes;
      figures.push({
        scenario: S,
        metric: `a script (${burst} reads at once): write units per request`,
        value: per(scriptWrites, burst),
        unit: 'WCU',
        note: `${scriptWrites} conditional UpdateItems for ${burst} requests: one per lease of 20; at $0.625 per million write units, $${round((0.625 * scriptWrites) / burst, 4)} per million requests`,
      });

      // Past the burst: refused without a write (the instance saw the bucket empty; it only fills with time).
      before = { ...calls };
      let refused = 0;
      for (let i = 0; i < 10; i++) await service.admit(script, 'reads', defaults).catch(() => (refused += 1));
      figures.push({
        scenario: S,
        metric: 'a refused request (429): write units',
        value: per(calls.writes - before.writes, 10),
        unit: 'WCU',
        note: `${refused}/10 refused`,
        target: '0',
        met: refused === 10 && calls.writes === before.writes,
      });

      // Without limits (RATE_LIMITS off, as this bench stack runs): nothing at all.
      before = { ...calls };
      for (let i = 0; i < 100; i++) await service.admit(uid('limits-off', i), 'posts', readConfig('RATE_LIMITS', { RATE_LIMITS: 'off' }));
      figures.push({
        scenario: S,
        metric: 'RATE_LIMITS off: DynamoDB calls per request',
        value: calls.writes + calls.reads - before.writes - before.reads,
        unit: 'calls',
        target: '0',
        met: calls.writes === before.writes,
      });
    } finally {
      restoreClock();
      dynamo.middlewareStack.remove(name);
    }
    return figures;
  },
};
