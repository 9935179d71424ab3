import type { BenchContext } from '../context.js';
import type { Figure } from '../report.js';

/** One measured scenario of `npm run bench`. */
export interface Scenario {
  /** What `npm run bench -- <id>` selects. */
  readonly id: string;
  readonly title: string;
  run(ctx: BenchContext): Promise<Figure[]>;
}
