import type { BenchContext } from '../context.js';
import type { Figure } from '../report.js';
import { cost } from './cost.js';
import { fanoutRate } from './fanout-rate.js';
import { postLatency } from './post-latency.js';
import { reading } from './reading.js';
import { rollups } from './rollups.js';
import { steadyLoad } from './steady-load.js';

export interface Scenario {
  /** What `npm run bench -- <id>` selects. */
  readonly id: string;
  readonly title: string;
  run(ctx: BenchContext): Promise<Figure[]>;
}

/** In the order they run (post and fanout share the 5,000 follows). */
export const scenarios: Scenario[] = [postLatency, fanoutRate, reading, rollups, cost, steadyLoad];
