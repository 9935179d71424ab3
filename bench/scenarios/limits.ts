/**
 * Limits: what the per-caller rate limiter (RATE_LIMITS) costs per request, measured on the limiter
 * itself in this process with the default limits and a frozen clock (the bench stack runs with
 * RATE_LIMITS off): calls to the limits table for a person (within the instance's own allowance), a
 * script (one conditional UpdateItem per lease of 20), a refused request, and with limits off.
 */
import { readConfig } from '../../lib/defs/config.js';
import { DEFAULT_RATE_LIMITS, parseRateLimits } from '../../lib/defs/rate-limits.js';
import type { BenchContext } from '../context.js';
import { uid } from '../fixtures.js';
import { exactly, type Figure, figureOf } from '../report.js';
import { round } from '../stats.js';
import type { Scenario } from './scenario.js';

const fig = figureOf('limits');

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
        if ((args.input as { TableName?: string }).TableName === table) calls[/Update|Put|Delete/.test(String(context.commandName)) ? 'writes' : 'reads'] += 1;
        return next(args);
      },
      { step: 'initialize', name },
    );
    const frozen = Date.now();
    const restoreClock = service.setRateLimitClock(() => frozen);
    const defaults = parseRateLimits(DEFAULT_RATE_LIMITS)!;
    /** Write units per request (1 per UpdateItem of an item under 1 KB, failed conditions included) of `requests` admissions. */
    const writesOf = async (requests: number, admit: (i: number) => Promise<unknown>) => {
      const before = calls.writes;
      for (let i = 0; i < requests; i++) await admit(i);
      return calls.writes - before;
    };
    const figures: Figure[] = [];
    try {
      // A person: a handful of reads, within the instance's own allowance (a tenth of 600).
      const person = uid('limits-person');
      const personWrites = await writesOf(30, () => service.admit(person, 'reads', defaults));
      figures.push(
        fig('a person (30 reads): write units per request on the limits table', round(personWrites / 30, 3), 'WCU', exactly(personWrites, 0)),
        fig('read units per request, any caller', calls.reads, 'RCU', exactly(calls.reads, 0)),
      );
      // A script: the whole burst of reads at once (600 shared + 60 of the instance's own).
      const script = uid('limits-script');
      const burst = defaults.reads.burst + Math.floor(defaults.reads.burst / 10);
      const scriptWrites = await writesOf(burst, () => service.admit(script, 'reads', defaults));
      figures.push(
        fig(`a script (${burst} reads at once): write units per request`, round(scriptWrites / burst, 3), 'WCU', {
          note: `${scriptWrites} conditional UpdateItems for ${burst} requests: one per lease of 20; at $0.625 per million write units, $${round((0.625 * scriptWrites) / burst, 4)} per million requests`,
        }),
      );
      // Past the burst: refused without a write (the instance saw the bucket empty; it only fills with time).
      let refused = 0;
      const refusedWrites = await writesOf(10, () => service.admit(script, 'reads', defaults).catch(() => (refused += 1)));
      figures.push(
        fig('a refused request (429): write units', round(refusedWrites / 10, 3), 'WCU', {
          note: `${refused}/10 refused`,
          ...exactly(refusedWrites, 0, refused === 10 && refusedWrites === 0),
        }),
      );
      // Without limits (RATE_LIMITS off, as this bench stack runs): nothing at all.
      const before = calls.writes + calls.reads;
      const off = readConfig('RATE_LIMITS', { RATE_LIMITS: 'off' });
      for (let i = 0; i < 100; i++) await service.admit(uid('limits-off', i), 'posts', off);
      const offCalls = calls.writes + calls.reads - before;
      figures.push(fig('RATE_LIMITS off: DynamoDB calls per request', offCalls, 'calls', exactly(offCalls, 0)));
    } finally {
      restoreClock();
      dynamo.middlewareStack.remove(name);
    }
    return figures;
  },
};
