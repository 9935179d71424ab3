/**
 * The shipped bundles: per function, the bundle's size and its cold init (a fresh Node process
 * imports it and serves one event against the bench's DynamoDB Local) beside the same handler built
 * with the SDK left to the runtime; three cold starts of each, alternating; medians.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { defaultRoute, eventSources, type FunctionId, functionList, routes } from '../../lib/defs/index.js';
import { LAMBDA_NODE_MAJOR } from '../../lib/defs/runtime.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { type BundleSet, resolveVariables, synthesizeBundles } from '../../local/bundles.js';
import type { BenchContext } from '../context.js';
import { httpEvent } from '../invoke.js';
import { type Figure, progress, figureOf } from '../report.js';
import { median, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'bundles';
const fig = figureOf(S);
const COLD_STARTS = 3;
const root = resolve(import.meta.dirname, '../..');

export const bundles: Scenario = {
  id: 'bundles',
  title: 'bundle size and cold init per function: SDK bundled (shipped) vs SDK from the runtime',
  async run(ctx) {
    const work = mkdtempSync(join(tmpdir(), 'tickfeed-bench-bundles-'));
    try {
      progress(`${S}: synthesizing (every function bundled, as cdk synth does)…`);
      const shipped = synthesizeBundles(join(work, 'cdk.out'));
      const runtimeSdk = await buildWithRuntimeSdk(join(work, 'runtime-sdk'));
      const figures: Figure[] = [];
      const ratios: number[] = [];
      let shippedTotal = 0;
      for (const def of functionList) {
        progress(`${S}: ${def.id}…`);
        const files = { bundled: shipped.functions[def.id].file, runtime: runtimeSdk[def.id] };
        const kb = (file: string) => round(statSync(file).size / 1024, 0);
        shippedTotal += statSync(files.bundled).size;
        figures.push(fig(`${def.id}: bundle size`, kb(files.bundled), 'KB', { note: `SDK left to the runtime: ${kb(files.runtime)} KB` }));
        let env: Record<string, string>;
        try {
          env = environment(shipped, def.id, ctx);
        } catch (error) {
          // A variable the local stack has nothing for (e.g. a Cognito issuer): no local cold start.
          figures.push(fig(`${def.id}: cold init`, Number.NaN, '', { note: `not measured: ${(error as Error).message.slice(0, 200)}` }));
          continue;
        }
        const event = eventFor(def.id);
        const runs: Record<'bundled' | 'runtime', ColdStart[]> = { bundled: [], runtime: [] };
        for (let i = 0; i < COLD_STARTS; i++) {
          for (const variant of ['bundled', 'runtime'] as const) runs[variant].push(await coldStart(files[variant], env, event));
        }
        const init = (variant: 'bundled' | 'runtime') => round(median(runs[variant].map((r) => r.importMs + r.firstEventMs)), 0);
        const importMs = (variant: 'bundled' | 'runtime') => round(median(runs[variant].map((r) => r.importMs)), 0);
        ratios.push(init('bundled') / init('runtime'));
        const served = runs.bundled[0]!.outcome;
        figures.push(
          fig(`${def.id}: cold init (import + first event: ${served})`, init('bundled'), 'ms', {
            note: `import ${importMs('bundled')} ms; SDK from the runtime: ${init('runtime')} ms (import ${importMs('runtime')} ms)`,
          }),
        );
      }
      figures.push(
        fig('cold init, SDK bundled ÷ SDK from the runtime (median over the functions)', round(median(ratios), 2), '×', {
          note: 'below 1: bundling the SDK starts faster (what the stack ships)',
        }),
      );
      figures.push(fig('all bundles together', round(shippedTotal / 2 ** 20, 1), 'MB'));
      return figures;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};

/** Each function's handler built as the stack builds it, but with `@aws-sdk/*` left out. */
async function buildWithRuntimeSdk(dir: string): Promise<Record<FunctionId, string>> {
  mkdirSync(dir, { recursive: true });
  // What Lambda's Node runtime provides (its own copy of the SDK), here the project's.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const out = {} as Record<FunctionId, string>;
  for (const def of functionList) {
    const file = join(dir, def.id, 'index.mjs');
    await build({
      entryPoints: [resolve(root, def.entry)],
      outfile: file,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${LAMBDA_NODE_MAJOR}`,
      minify: true,
      mainFields: ['module', 'main'],
      external: ['@aws-sdk/*'],
      banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
      logLevel: 'silent',
    });
    out[def.id] = file;
  }
  return out;
}

/** The function's template variables (local names, the bench stack's config) and what Lambda sets. */
function environment(set: BundleSet, fn: FunctionId, ctx: BenchContext): Record<string, string> {
  const bundle = set.functions[fn];
  return {
    PATH: process.env.PATH ?? '',
    ...resolveVariables(set, bundle, { tableNames: ctx.stack.tableNames, queueUrls: ctx.stack.queueUrls, config: ctx.stack.env }),
    AWS_REGION: localRegion,
    AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
    AWS_LAMBDA_FUNCTION_NAME: `tickfeed-${fn}`,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(bundle.memoryMb),
    AWS_EXECUTION_ENV: `AWS_Lambda_${bundle.runtime}`,
    AWS_ENDPOINT_URL_DYNAMODB: ctx.stack.dynamoEndpoint,
    AWS_ENDPOINT_URL_SQS: ctx.stack.sqsEndpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

/** One event the function serves: a GET of one of its routes if it has one, else its first route, else an empty batch. */
function eventFor(fn: FunctionId): unknown {
  const mine = routes.filter((r) => r.fn === fn);
  const route = mine.find((r) => r.method === 'GET') ?? mine[0];
  if (route) return httpEvent(route.method, route.path.replace(/\{[^}]+\}/g, 'bench-cold'), 'bench-cold', route.method === 'GET' ? undefined : {});
  // The `$default` route's function answers a path no route has.
  if (fn === defaultRoute.fn) return httpEvent('GET', '/bench-no-such-path', 'bench-cold');
  if (eventSources.some((s) => s.fn === fn)) return { Records: [] };
  return {}; // neither a route nor an event source (e.g. the WebSocket API's): the handler's answer to nothing
}

interface ColdStart {
  importMs: number;
  firstEventMs: number;
  /** What the event got: an HTTP status, "batch", or "threw". */
  outcome: string;
}

/** A fresh Node process: import the module, serve the event, report the two times, exit. */
const PROBE = `
const t0 = performance.now();
const mod = await import(process.env.PROBE_MODULE);
const t1 = performance.now();
let outcome;
try {
  const result = await mod.handler(JSON.parse(process.env.PROBE_EVENT), { awsRequestId: 'bench', getRemainingTimeInMillis: () => 10000 });
  outcome = result && typeof result === 'object' && 'statusCode' in result ? String(result.statusCode) : 'batch';
} catch { outcome = 'threw'; }
process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstEventMs: performance.now() - t1, outcome }));
process.exit(0);
`;

function coldStart(file: string, env: Record<string, string>, event: unknown): Promise<ColdStart> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE], {
      env: { ...env, PROBE_MODULE: pathToFileURL(file).href, PROBE_EVENT: JSON.stringify(event) },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolvePromise(JSON.parse(out.slice(out.lastIndexOf('{"importMs"'))) as ColdStart);
      } catch {
        reject(new Error(`cold start of ${file} printed no result: ${out.slice(0, 300)}`));
      }
    });
  });
}
