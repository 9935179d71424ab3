/**
 * The bundles pass of the tests (`vitest.bundles.config.ts`, TICKFEED_BUNDLES=1): the same local
 * stacks, every function served from its shipped bundle (local/bundled-stack.ts). The global
 * setup synthesizes once and hands the bundle set to the test files (own stacks use it too); every
 * stack writes how often each function was invoked into TICKFEED_BUNDLE_COUNTS, one file per
 * stack, so a last test can fail on a function whose bundle no flow ran
 * (test/bundles/every-function.test.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FunctionId } from '../../lib/defs/index.js';
import { startBundledStack } from '../../local/bundled-stack.js';
import { type BundleSet, synthesizeBundles } from '../../local/bundles.js';
import { type LocalStack, type LocalStackOptions, startLocalStack } from '../../local/stack.js';

export const inBundleMode = (): boolean => process.env.TICKFEED_BUNDLES === '1';

/** Synthesizes into a directory of its own (never the repo's cdk.out, which other tests synthesize into). */
export function synthesizeTestBundles(): BundleSet {
  return synthesizeBundles(mkdtempSync(join(tmpdir(), 'tickfeed-bundles-')));
}

/** Removes the synthesized bundles and the invocation counts (at the end of the pass). */
export function removeTestBundles(set: BundleSet): void {
  rmSync(set.outdir, { recursive: true, force: true });
  if (process.env.TICKFEED_BUNDLE_COUNTS) rmSync(process.env.TICKFEED_BUNDLE_COUNTS, { recursive: true, force: true });
}

let stacks = 0;

/** A local stack: from the bundles when given (invocations counted), else from the sources. */
export function startTestStack(opts: LocalStackOptions, bundles: BundleSet | undefined | null): Promise<LocalStack> {
  if (!bundles) return startLocalStack(opts);
  const dir = process.env.TICKFEED_BUNDLE_COUNTS;
  if (!dir) throw new Error('TICKFEED_BUNDLE_COUNTS is not set (vitest.bundles.config.ts sets it)');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}-${stacks++}.json`);
  const counts: Partial<Record<FunctionId, number>> = {};
  return startBundledStack({
    ...opts,
    bundles,
    onInvoke: (fn) => {
      counts[fn] = (counts[fn] ?? 0) + 1;
      // Synchronous, and whole: written aside and renamed over, so the coverage test (another
      // process, reading while a stack still runs late jobs such as delayed settles) never reads
      // a file cut short — it did once, under CI with two busy loops ("Unexpected end of JSON input").
      writeFileSync(`${file}.tmp`, JSON.stringify(counts));
      renameSync(`${file}.tmp`, file);
    },
  });
}

/** Invocations per function, summed over every stack of the pass. */
export function countedInvocations(dir: string): Record<string, number> {
  const total: Record<string, number> = {};
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    for (const [fn, n] of Object.entries(JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, number>)) {
      total[fn] = (total[fn] ?? 0) + n;
    }
  }
  return total;
}
