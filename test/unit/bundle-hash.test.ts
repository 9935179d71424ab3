/**
 * A bundle's asset hash (lib/constructs/bundle-hash.ts) names everything the bundle is built from:
 * a cloud assembly reuses a bundle only for the same inputs, so any change to the code, the
 * definitions, the lockfile, the entry or the options must change the hash.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleAssetHash } from '../../lib/constructs/bundle-hash.js';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tickfeed-bundle-hash-'));
  for (const [path, text] of Object.entries({ 'package-lock.json': '{}', 'tsconfig.json': '{}', 'functions/a.ts': 'a', 'lib/defs/d.ts': 'd', ...files })) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('bundle asset hash', () => {
  it('is the same for the same inputs, and changes with any of them', () => {
    const base = bundleAssetHash(tree({}), 'functions/a.ts', { minify: true });
    expect(bundleAssetHash(tree({}), 'functions/a.ts', { minify: true })).toBe(base);
    const changed = [
      bundleAssetHash(tree({ 'functions/a.ts': 'a2' }), 'functions/a.ts', { minify: true }),
      bundleAssetHash(tree({ 'functions/deep/b.ts': 'b' }), 'functions/a.ts', { minify: true }),
      bundleAssetHash(tree({ 'lib/defs/d.ts': 'd2' }), 'functions/a.ts', { minify: true }),
      bundleAssetHash(tree({ 'package-lock.json': '{"v":2}' }), 'functions/a.ts', { minify: true }),
      bundleAssetHash(tree({}), 'functions/b.ts', { minify: true }),
      bundleAssetHash(tree({}), 'functions/a.ts', { minify: false }),
    ];
    for (const hash of changed) expect(hash).not.toBe(base);
    expect(new Set(changed).size).toBe(changed.length);
  });

  it('ignores what the bundle is not built from', () => {
    const base = bundleAssetHash(tree({}), 'functions/a.ts', {});
    expect(bundleAssetHash(tree({ 'README.md': 'x', 'test/t.ts': 't', 'lib/nag.ts': 'n' }), 'functions/a.ts', {})).toBe(base);
  });
});
