import type { BenchContext } from '../context.js';
import type { Figure } from '../report.js';
import { cost } from './cost.js';
import { reading } from './reading.js';
import { steadyLoad } from './steady-load.js';

export interface Scenario {
  readonly id: string;
  readonly title: string;
  run(ctx: BenchContext): Promise<Figure[]>;
}

/** In the order they run. */
export const scenarios: Scenario[] = [reading, cost, steadyLoad];
