import type { BenchContext } from '../context.js';
import type { Figure } from '../report.js';

interface ScenarioBase {
  /** What `npm run bench -- <id>` selects. */
  readonly id: string;
  readonly title: string;
}

/** One measured scenario of `npm run bench`: most run on the shared stack… */
interface SharedStackScenario extends ScenarioBase {
  readonly ownStacks?: false;
  run(ctx: BenchContext): Promise<Figure[]>;
}

/**
 * …some start stacks of their own, and the shared one is not started for them (idle, it would take
 * a share of the CPU they measure).
 */
interface OwnStacksScenario extends ScenarioBase {
  readonly ownStacks: true;
  run(): Promise<Figure[]>;
}

export type Scenario = SharedStackScenario | OwnStacksScenario;
