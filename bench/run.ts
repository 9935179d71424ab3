/**
 * `npm run bench`: starts a fresh in-memory local stack (unless every scenario run starts its own),
 * runs every scenario with a progress display, prints one markdown table and saves the same figures
 * to bench/results/latest.json, drawn as bench/results/latest.svg (bench/chart.ts) with the table
 * in bench/results/latest.md.
 * Each figure is a median/p99 over repetitions or a ratio measured side by side in this run,
 * because absolute times on a shared 2-core machine are noisy.
 */
import { resolve } from 'node:path';
import { generateLocalKeys } from '../local/jwt.js';
import { type LocalStack, startLocalStack } from '../local/stack.js';
import { benchStackEnv } from './stack-env.js';
import { writeChartBeside } from './chart.js';
import { type BenchContext, createContext } from './context.js';
import { type Figure, figureOf, machine, progress, type Results, runLine, save, toMarkdown, writeTableBeside } from './report.js';
import { scenarios } from './scenarios/index.js';

const only = process.argv.slice(2);
const keys = await generateLocalKeys();
const figures: Figure[] = [];
const durations: Record<string, number> = {};
const runStarted = Date.now();
/** The shared stack, started for the first scenario that uses it. */
let shared: { stack: LocalStack; ctx: BenchContext } | undefined;
async function sharedContext(): Promise<BenchContext> {
  if (shared) return shared.ctx;
  progress('starting the local stack (in memory)…');
  const stack = await startLocalStack({
    port: 0,
    keys,
    sqsRetryDelaySeconds: 1,
    // A reader's restamp at once, not spread over STAMP_SPREAD's 15 minutes: spread, it lands in a later
    // scenario's meter, and the scenarios wait out a first read's stamp before they measure.
    env: { ...benchStackEnv, STAMP_SPREAD: 'off' },
  });
  try {
    shared = { stack, ctx: await createContext(stack, keys) };
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return shared.ctx;
}
try {
  for (const scenario of scenarios) {
    if (only.length && !only.includes(scenario.id)) continue;
    // The shared stack starts (if it must) before the scenario's clock does.
    const run = scenario.ownStacks ? () => scenario.run() : await sharedContext().then((ctx) => () => scenario.run(ctx));
    progress(`${scenario.id}: ${scenario.title}…`);
    const started = Date.now();
    try {
      figures.push(...(await run()));
    } catch (error) {
      // One broken scenario must not hide the others' figures; the table says what failed.
      console.error(`\n${scenario.id} failed:`, error);
      figures.push(figureOf(scenario.id)('scenario failed', Number.NaN, '', { met: false, note: String((error as Error).message).slice(0, 300) }));
    }
    durations[scenario.id] = Math.round((Date.now() - started) / 1000);
    progress(`${scenario.id}: done in ${durations[scenario.id]} s\n`);
  }
} finally {
  shared?.ctx.close();
  await shared?.stack.stop();
}
const results: Results = { machine: machine(), totalSeconds: Math.round((Date.now() - runStarted) / 1000), durations, figures };
console.log(`\n${runLine(results)}\n`);
console.log(toMarkdown(figures));
const out = resolve(import.meta.dirname, 'results', only.length ? `partial-${only.join('-')}.json` : 'latest.json');
save(out, results);
console.log(`\nsaved ${out}`);
// The chart needs every scenario's figures, so a partial run (`npm run bench -- post`) draws none.
if (!only.length) {
  console.log(`saved ${writeTableBeside(out)}`);
  try {
    console.log(`saved ${await writeChartBeside(out)}`);
  } catch (error) {
    console.error(`\nno chart: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
