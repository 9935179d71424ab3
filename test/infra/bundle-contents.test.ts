/**
 * Each bundle carries only what its function uses. Built here with esbuild's metafile and the
 * options the stack bundles with (lib/constructs/functions.ts: ESM, node target, minified, module
 * first), so the inputs that make up each function's output are known by name:
 *  - an SDK client only where the function's definition grants its service (no SQS client in a
 *    function that sends to no queue, no DynamoDB client in one without a table): a shared module
 *    creating every client must not put them all in every bundle;
 *  - zod's messages in English only: `import { z } from 'zod'` keeps the whole `z` namespace,
 *    every locale included (about 370 KB of each bundle); a namespace import keeps what is used.
 * Sizes and cold starts are in the bench (`npm run bench -- bundles`).
 */
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FunctionDef, functionList } from '../../lib/defs/index.js';
import { LAMBDA_NODE_MAJOR } from '../../lib/defs/runtime.js';

const root = resolve(import.meta.dirname, '../..');
const inputsOf = new Map<string, string[]>();

async function bundleInputs(def: FunctionDef): Promise<string[]> {
  const out = await build({
    entryPoints: [resolve(root, def.entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${LAMBDA_NODE_MAJOR}`,
    minify: true,
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    outfile: 'index.mjs',
    logLevel: 'silent',
  });
  const output = Object.values(out.metafile.outputs)[0]!;
  return Object.entries(output.inputs)
    .filter(([, i]) => i.bytesInOutput > 0)
    .map(([file]) => file);
}

beforeAll(async () => {
  for (const def of functionList) inputsOf.set(def.id, await bundleInputs(def));
}, 120_000);

const carries = (fn: string, pkg: string) => inputsOf.get(fn)!.some((file) => file.includes(`node_modules/${pkg}/`));

describe('each bundle', () => {
  it('carries the SQS client only when its function sends to a queue', () => {
    const wrong = functionList.filter((def) => def.sendsTo.length === 0 && carries(def.id, '@aws-sdk/client-sqs')).map((d) => d.id);
    expect(wrong, 'functions that send to no queue but carry @aws-sdk/client-sqs').toEqual([]);
    // …and the check is live: a sender does carry it.
    const sender = functionList.find((def) => def.sendsTo.length > 0)!;
    expect(carries(sender.id, '@aws-sdk/client-sqs')).toBe(true);
  });

  it('carries the DynamoDB client only when its function is granted a table', () => {
    const wrong = functionList.filter((def) => Object.keys(def.tables).length === 0 && carries(def.id, '@aws-sdk/client-dynamodb')).map((d) => d.id);
    expect(wrong, 'functions without a table that carry @aws-sdk/client-dynamodb').toEqual([]);
  });

  it('carries zod’s English messages only, never its other locales', () => {
    const withLocales = functionList
      .filter((def) => inputsOf.get(def.id)!.some((file) => /node_modules\/zod\/.*\/locales\/(?!en\.)[^/]+$/.test(file)))
      .map((d) => d.id);
    expect(withLocales, 'bundles with every zod locale (an `import { z } from "zod"` somewhere?)').toEqual([]);
  });
});
