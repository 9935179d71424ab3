/**
 * Runs last in the bundles pass (vitest.bundles.config.ts, its own group): every function the
 * stack defines (lib/defs/functions.ts — nothing listed here) has a bundle in the synthesized
 * template, and the flows of the pass invoked each of those bundles at least once. A function no
 * flow reaches fails here by name: add a flow that covers it to test/bundles/flows.ts.
 * Each bundle is one self-contained ESM file of modest size (what it may contain is
 * test/infra/bundle-contents.test.ts; sizes and cold starts are in the bench).
 */
import { statSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { functionList } from '../../lib/defs/index.js';
import { countedInvocations } from '../support/bundle-mode.js';
import { NOT_YET_FROM_BUNDLES } from './flows.js';

describe('the bundles pass', () => {
  const bundles = inject('bundles');
  const counts = () => countedInvocations(process.env.TICKFEED_BUNDLE_COUNTS!);

  it('synthesized a bundle for every function of lib/defs/functions.ts, each inside the cloud assembly', () => {
    expect(bundles, 'run by vitest.bundles.config.ts').not.toBeNull();
    expect(Object.keys(bundles!.functions).sort()).toEqual(functionList.map((f) => f.id).sort());
    for (const bundle of Object.values(bundles!.functions)) expect(bundle.file.startsWith(`${bundles!.outdir}/asset.`)).toBe(true);
  });

  it('made each bundle one ESM file under 2 MiB', () => {
    for (const bundle of Object.values(bundles!.functions)) {
      expect(bundle.file.endsWith('.mjs'), bundle.fn).toBe(true);
      expect(statSync(bundle.file).size, bundle.fn).toBeLessThan(2 * 1024 * 1024);
    }
  });

  it('invoked every function from its bundle', () => {
    const seen = counts();
    const never = functionList.map((f) => f.id).filter((fn) => !(seen[fn]! > 0) && !(fn in NOT_YET_FROM_BUNDLES));
    expect(never, `functions whose bundle no flow invoked (counts: ${JSON.stringify(seen)})`).toEqual([]);
  });

  it('lists as not yet covered only functions that exist and that no flow invoked', () => {
    const seen = counts();
    const ids = new Set<string>(functionList.map((f) => f.id));
    for (const [fn, reason] of Object.entries(NOT_YET_FROM_BUNDLES)) {
      expect(ids.has(fn), `${fn} is not a function any more`).toBe(true);
      expect(seen[fn] ?? 0, `${fn} is invoked now: take it out of NOT_YET_FROM_BUNDLES (${reason})`).toBe(0);
    }
  });
});
