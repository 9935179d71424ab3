/**
 * Reading what the template says Lambda runs (local/bundles.ts), without synthesizing: a template
 * and asset directories made here. The bundles pass runs the real thing (vitest.bundles.config.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FunctionId, functionList, type QueueId, queues, type TableId, tables } from '../../lib/defs/index.js';
import { BundleError, readBundles, resolveVariables } from '../../local/bundles.js';

const outdir = mkdtempSync(join(tmpdir(), 'tickfeed-bundles-unit-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const tableIds = Object.keys(tables) as TableId[];
const queueIds = Object.keys(queues) as QueueId[];
const local = {
  tableNames: Object.fromEntries(tableIds.map((t) => [t, `local-${t}`])) as Record<TableId, string>,
  queueUrls: Object.fromEntries(queueIds.map((q) => [q, `http://127.0.0.1:9/q/${q}`])) as Record<QueueId, string>,
  config: { FEED_MAX_ITEMS: '7', REALTIME_ENDPOINT: 'http://127.0.0.1:9/@connections' } as Record<string, string>,
};

/** A template like the stack's: one function resource per definition, each with its asset, plus the outputs. */
function template(variablesOf: (fn: FunctionId) => Record<string, unknown> = () => ({})) {
  const Resources: Record<string, unknown> = {};
  const logicalIds = {} as Record<FunctionId, string>;
  for (const def of functionList) {
    const logicalId = `${def.id}Fn1234`;
    logicalIds[def.id] = logicalId;
    mkdirSync(join(outdir, `asset.${def.id}hash`), { recursive: true });
    writeFileSync(join(outdir, `asset.${def.id}hash`, 'index.mjs'), 'export const handler = async () => 1;');
    Resources[logicalId] = {
      Type: 'AWS::Lambda::Function',
      Properties: {
        Code: { S3Key: `${def.id}hash.zip` },
        Handler: 'index.handler',
        Runtime: 'nodejs24.x',
        MemorySize: def.memoryMb,
        Timeout: def.timeoutSeconds,
        LoggingConfig: { LogFormat: 'JSON' },
        Environment: { Variables: variablesOf(def.id) },
      },
    };
  }
  const Outputs: Record<string, unknown> = {};
  for (const t of tableIds) Outputs[`${t}TableName`] = { Value: { Ref: `${t}TableLogical` } };
  for (const q of queueIds) Outputs[`${q}QueueUrl`] = { Value: { Ref: `${q}QueueLogical` } };
  return { template: { Resources, Outputs } as Parameters<typeof readBundles>[1], logicalIds };
}

describe('readBundles', () => {
  it('finds each function’s asset, module and handler export, sizes and log format from the template', () => {
    const { template: t, logicalIds } = template();
    const set = readBundles(outdir, t, logicalIds);
    expect(Object.keys(set.functions).sort()).toEqual(functionList.map((f) => f.id).sort());
    const me = set.functions.me;
    expect(me).toMatchObject({
      fn: 'me',
      dir: join(outdir, 'asset.mehash'),
      file: join(outdir, 'asset.mehash', 'index.mjs'),
      exportName: 'handler',
      runtime: 'nodejs24.x',
      logFormat: 'JSON',
    });
    expect(set.refs[`${tableIds[0]}TableLogical`]).toEqual({ table: tableIds[0] });
    expect(set.refs[`${queueIds[0]}QueueLogical`]).toEqual({ queue: queueIds[0] });
  });

  it('fails naming the function when its module is missing, and when an output is', () => {
    const { template: t, logicalIds } = template();
    const broken = structuredClone(t);
    (broken.Resources[logicalIds.health]!.Properties as { Handler: string }).Handler = 'main.handler';
    expect(() => readBundles(outdir, broken, logicalIds)).toThrow(
      new BundleError(`health: no module main(.mjs|.js|.cjs) in ${join(outdir, 'asset.healthhash')}`),
    );
    const noOutput = structuredClone(t);
    delete noOutput.Outputs![`${tableIds[0]}TableName`];
    expect(() => readBundles(outdir, noOutput, logicalIds)).toThrow(/no output/);
  });
});

describe('resolveVariables', () => {
  const table = tableIds[0]!;
  const queue = queueIds[0]!;

  it('gives exactly the template’s variables: references as local names and URLs, config values from the local stack', () => {
    const { template: t, logicalIds } = template((fn) =>
      fn === 'me'
        ? {
            POWERTOOLS_SERVICE_NAME: 'tickfeed',
            FEED_MAX_ITEMS: '1000', // a config key: the local stack's value wins, as in source mode
            FEED_TTL: '30d', // a config key the local stack does not set: the template's
            [tables[table].envVar]: { Ref: `${table}TableLogical` },
            [queues[queue].envVar]: { Ref: `${queue}QueueLogical` },
            REALTIME_ENDPOINT: { 'Fn::Join': ['', ['https://', { Ref: 'WsApi' }]] }, // served locally: by name
          }
        : {},
    );
    const set = readBundles(outdir, t, logicalIds);
    expect(resolveVariables(set, set.functions.me, local)).toEqual({
      POWERTOOLS_SERVICE_NAME: 'tickfeed',
      FEED_MAX_ITEMS: '7',
      FEED_TTL: '30d',
      [tables[table].envVar]: `local-${table}`,
      [queues[queue].envVar]: `http://127.0.0.1:9/q/${queue}`,
      REALTIME_ENDPOINT: 'http://127.0.0.1:9/@connections',
    });
    expect(resolveVariables(set, set.functions.health, local)).toEqual({}); // nothing added
  });

  it('refuses a value it cannot resolve, naming the function and the variable', () => {
    const { template: t, logicalIds } = template((fn) => (fn === 'me' ? { SOMETHING: { 'Fn::GetAtt': ['Elsewhere', 'Arn'] } } : {}));
    const set = readBundles(outdir, t, logicalIds);
    expect(() => resolveVariables(set, set.functions.me, local)).toThrow(/^me: variable SOMETHING is .*Fn::GetAtt.* cannot resolve/);
  });
});
