/**
 * The item registry (functions/model/item-kinds.ts) against the model's key functions: each
 * kind's example keys begin as its documented template does, and every key function the model
 * exports is named by some kind — so the generated tables of docs/data-model.md cannot describe
 * a key the code no longer makes, or miss one it makes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itemKinds } from '../../functions/model/item-kinds.js';

const modelDir = resolve(import.meta.dirname, '..', '..', 'functions', 'model');

/** The literal text a key template starts with: up to its first `<placeholder>` (backticks dropped, first alternative). */
function literalStart(template: string): string | undefined {
  if (!template.startsWith('`')) return undefined; // prose ("the post's range key"): a Number, nothing to compare
  const code = /`([^`]*)`/.exec(template)![1]!;
  const placeholder = code.indexOf('<');
  return placeholder < 0 ? code : code.slice(0, placeholder);
}

describe('item kinds', () => {
  it('make example keys that start as each documented template does', () => {
    for (const kind of itemKinds) {
      const examples = kind.examples();
      expect(examples.length, kind.item).toBeGreaterThan(0);
      const pkStart = literalStart(kind.pk)!;
      // Alternatives (`mh#…`, `bh#…`): an example starts as one of them.
      const skStarts = kind.sk.startsWith('`') ? [...kind.sk.matchAll(/`([^`]*)`/g)].map((m) => literalStart(`\`${m[1]}\``)!) : [];
      examples.forEach((key) => {
        expect(key.pk.startsWith(pkStart), `${kind.item}: pk ${key.pk} vs ${kind.pk}`).toBe(true);
        const sk = key.sk ?? key.rk?.toString();
        if (skStarts.length === 0 || sk === undefined) return;
        expect(
          skStarts.some((start) => sk.startsWith(start)),
          `${kind.item}: sk ${sk} vs ${kind.sk}`,
        ).toBe(true);
      });
    }
  });

  it('name every key function the model exports', () => {
    const registry = readFileSync(resolve(modelDir, 'item-kinds.ts'), 'utf8');
    // Helpers that build or read part of a key, not an item's key.
    const parts = new Set([
      'orderSortKey',
      'markShardKey',
      'memberOfListSortKey',
      'isFollowListSortKey',
      'isFeedListSortKey',
      'isLedgerKey',
      'parseRangeKey',
      'ticksOfRangeKey',
    ]);
    const keyFunctions = readdirSync(modelDir)
      .filter((f) => f.endsWith('.ts') && f !== 'item-kinds.ts')
      .flatMap((f) => [...readFileSync(resolve(modelDir, f), 'utf8').matchAll(/^export (?:const|function) (\w+Key)\b/gm)].map((m) => m[1]!))
      .filter((name) => !parts.has(name));
    expect(keyFunctions.length).toBeGreaterThan(25);
    expect(keyFunctions.filter((name) => !new RegExp(`\\b${name}\\(`).test(registry))).toEqual([]);
  });

  // Which store writes each kind: test/unit/item-writers.test.ts, by the keys the stores send.

  it('name an owning store that exists', () => {
    const stores = new Set(readdirSync(resolve(modelDir, '..', 'stores')).map((f) => f.replace(/\.ts$/, '')));
    for (const kind of itemKinds) expect(stores.has(kind.owner), `${kind.item}: ${kind.owner}`).toBe(true);
  });
});
