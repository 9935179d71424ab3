/**
 * The dependency rules of .dependency-cruiser.cjs (`npm run deps`), run through dependency-cruiser's
 * API: the repo's functions/, lib/ and bin/ break none of them, and — so a broken config cannot
 * pass silently — a small fixture tree that breaks each of them on purpose is reported rule by rule.
 * Needs no local stack.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const configFile = join(repoRoot, '.dependency-cruiser.cjs');
const tsConfigFile = join(repoRoot, 'tsconfig.json');

/** Cruise `paths` (relative to `baseDir`) with the repo's rule set; returns the violations. */
async function violationsIn(baseDir: string, paths: string[]): Promise<IViolation[]> {
  const options = await extractDepcruiseOptions(configFile);
  const { output } = await cruise(paths, { ...options, baseDir, tsConfig: { fileName: tsConfigFile } }, {}, { tsConfig: extractTSConfig(tsConfigFile) });
  if (typeof output === 'string') throw new Error(`expected a cruise result object, got: ${output.slice(0, 200)}`);
  expect(output.summary.totalCruised, 'the cruise found no modules').toBeGreaterThan(0);
  return output.summary.violations;
}

/** `node_modules/.../@aws-sdk/lib-dynamodb/dist-es/index.js` → `@aws-sdk/lib-dynamodb`. */
const shortName = (path: string) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path;

/** One line per violation: `rule: from → to`, plus the cycle for circular ones. */
function describeViolation(v: IViolation): string {
  const cycle = v.cycle?.length ? `  (cycle: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')})` : '';
  return `${v.rule.name}: ${v.from} → ${shortName(v.to)}${cycle}`;
}

/** Violations grouped by rule, each rule with its explanation from the config. */
async function report(violations: IViolation[]): Promise<string> {
  const { ruleSet } = await extractDepcruiseOptions(configFile);
  const comments = new Map((ruleSet?.forbidden ?? []).map((r) => [r.name, r.comment]));
  const byRule = new Map<string, IViolation[]>();
  for (const v of violations) byRule.set(v.rule.name, [...(byRule.get(v.rule.name) ?? []), v]);
  const lines = [`${violations.length} dependency rule violation(s) (see .dependency-cruiser.cjs; npm run deps):`];
  for (const [rule, list] of byRule) {
    lines.push('', `${rule} (${list.length}): ${comments.get(rule) ?? ''}`);
    for (const v of list) lines.push(`  ${describeViolation(v).slice(rule.length + 2)}`);
  }
  return lines.join('\n');
}

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  it('functions/, lib/ and bin/ break none of them', async () => {
    const violations = await violationsIn(repoRoot, ['functions', 'lib', 'bin']);
    expect(violations.length, await report(violations)).toBe(0);
  });

  describe('on a fixture tree that breaks each rule on purpose', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickfeed-deps-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const files: Record<string, string> = {
      'package.json': '{ "type": "module", "private": true }',
      // Allowed: each layer importing the ones below it, skipping some; .js specifiers for .ts files.
      'functions/handlers/h.ts': "import { read } from '../services/feed.js';\nexport const handler = () => read();",
      'functions/services/feed.ts': "import { get } from '../stores/s.js';\nexport const read = () => get();",
      'functions/stores/s.ts': [
        "import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';",
        "import { parse } from '../model/item.js';",
        "import { client } from '../platform/p.js';",
        'export const get = () => parse(DynamoDBDocumentClient.from(client));',
      ].join('\n'),
      'functions/model/item.ts': [
        "import type { AttributeValue } from '@aws-sdk/client-dynamodb';", // type-only: allowed in model
        "import { type NativeAttributeValue } from '@aws-sdk/util-dynamodb';", // inline type-only too
        "import { tableName } from '../../lib/defs/d.js';",
        'export const parse = (x: unknown): [AttributeValue?, NativeAttributeValue?] => [x as AttributeValue, tableName];',
      ].join('\n'),
      'functions/platform/p.ts': [
        "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
        "import { tableName } from '../../lib/defs/d.js';",
        'export const client = new DynamoDBClient({});\nexport const name = tableName;',
      ].join('\n'),
      'lib/defs/d.ts': "import { join } from 'node:path';\nexport const tableName = join('a', 'b');",
      'bin/app.ts': "import { stack } from '../lib/stack.js';\nexport const app = stack;",

      // Violations, one (or two, said so) per rule:
      'functions/model/x.ts': "import { y } from '../services/y.js';\nexport const x = y;", // model → services
      'functions/services/y.ts': 'export const y = 1;',
      'functions/services/cycle-a.ts': "import { b } from './cycle-b.js';\nexport const a = () => b();",
      'functions/services/cycle-b.ts': "import { a } from './cycle-a.js';\nexport const b = () => a();",
      'functions/http/r.ts': "import { handler } from '../handlers/h.js';\nexport const r = handler;", // http → handlers
      'functions/services/up.ts': "import { r } from '../http/r.js';\nexport const u = r;", // services → http
      'functions/stores/up.ts': "import { read } from '../services/feed.js';\nexport const u = read;", // stores → services
      'functions/platform/up.ts': "import { parse } from '../model/item.js';\nexport const up = parse;", // platform → model
      'functions/services/dynamo.ts': "import { GetCommand } from '@aws-sdk/lib-dynamodb';\nexport const g = GetCommand;",
      'functions/model/dynamo.ts': "import { marshall } from '@aws-sdk/util-dynamodb';\nexport const m = marshall;",
      'functions/stores/cdk.ts': "import { stack } from '../../lib/stack.js';\nexport const s = stack;",
      'functions/core/old.ts': "import { y } from '../services/y.js';\nexport const old = y;", // outside the layers…
      'functions/handlers/uses-old.ts': "import { old } from '../core/old.js';\nexport const h = old;", // …and imported
      'functions/handlers/missing.ts': "import { nope } from './does-not-exist.js';\nexport const m = nope;",
      'lib/defs/up.ts': "import { stack } from '../stack.js';\nexport const u = stack;", // lib/defs → lib
      'lib/stack.ts': "import { handler } from '../functions/handlers/h.js';\nexport const stack = handler;",
      'bin/console.ts': "import { site } from '../local/console-site.js';\nexport const c = site;", // CDK app → local
      'local/console-site.ts': 'export const site = 1;',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), `${text}\n`);
    }
    // The fixture resolves npm packages (the DynamoDB client ones) from the repo's node_modules.
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');

    it('reports exactly the planted violations', async () => {
      const violations = await violationsIn(dir, ['functions', 'lib', 'bin']);
      const found = violations.map(describeViolation).sort();
      expect(found, await report(violations)).toEqual(
        [
          'layer-model-imports-upward: functions/model/x.ts → functions/services/y.ts',
          'layer-http-imports-upward: functions/http/r.ts → functions/handlers/h.ts',
          'layer-services-imports-upward: functions/services/up.ts → functions/http/r.ts',
          'layer-stores-imports-upward: functions/stores/up.ts → functions/services/feed.ts',
          'layer-platform-imports-upward: functions/platform/up.ts → functions/model/item.ts',
          // a cycle is reported once, from its first module
          'no-circular: functions/services/cycle-a.ts → functions/services/cycle-b.ts' +
            '  (cycle: functions/services/cycle-a.ts → functions/services/cycle-b.ts → functions/services/cycle-a.ts)',
          'dynamodb-client-outside-stores: functions/services/dynamo.ts → @aws-sdk/lib-dynamodb',
          'dynamodb-client-in-model: functions/model/dynamo.ts → @aws-sdk/util-dynamodb',
          'functions-import-only-lib-defs: functions/stores/cdk.ts → lib/stack.ts',
          'functions-outside-layers-imported: functions/handlers/uses-old.ts → functions/core/old.ts',
          'functions-outside-layers-importing: functions/core/old.ts → functions/services/y.ts',
          'not-to-unresolvable: functions/handlers/missing.ts → ./does-not-exist.js',
          'lib-defs-self-contained: lib/defs/up.ts → lib/stack.ts',
          'cdk-app-not-to-functions: lib/stack.ts → functions/handlers/h.ts',
          'cdk-app-not-to-local: bin/console.ts → local/console-site.ts',
        ].sort(),
      );
    });

    it('has no rule that the fixture leaves silent', async () => {
      const { ruleSet } = await extractDepcruiseOptions(configFile);
      const names = (ruleSet?.forbidden ?? []).map((r) => r.name ?? '(a rule without a name)');
      expect(names).toEqual(expect.arrayContaining(['no-circular', 'lib-defs-self-contained', 'cdk-app-not-to-functions']));
      for (const layer of ['http', 'services', 'stores', 'model', 'platform']) {
        expect(names).toContain(`layer-${layer}-imports-upward`);
      }
      const fired = new Set((await violationsIn(dir, ['functions', 'lib', 'bin'])).map((v) => v.rule.name));
      expect(
        names.filter((n) => !fired.has(n)),
        'rules that no planted violation triggers',
      ).toEqual([]);
    });
  });
});
