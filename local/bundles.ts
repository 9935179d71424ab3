/**
 * The shipped bundles, as the local runtime runs them (`npm start -- --bundles`, the bundles test
 * pass): synthesize the stack exactly as `cdk synth` does (NodejsFunction bundling through the
 * local esbuild), then read, per function of lib/defs/functions.ts, what the template says Lambda
 * runs: the asset directory, the handler (`index.handler` → `index.mjs`, export `handler`), and
 * its environment variables — resolved to local names and URLs here, nothing added but what
 * Lambda itself sets and the local endpoints.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { buildApp } from '../lib/app.js';
import { functionConstructId } from '../lib/constructs/functions.js';
import { configKeys, type FunctionId, functionList, type QueueId, queues, type TableId, tables } from '../lib/defs/index.js';

/** A template value: a literal, or an intrinsic (`{ Ref: … }`) that only CloudFormation resolves. */
export type TemplateValue = string | Record<string, unknown>;

export interface FunctionBundle {
  readonly fn: FunctionId;
  readonly logicalId: string;
  /** The asset directory (`cdk.out/asset.<hash>`): Lambda's task root. */
  readonly dir: string;
  /** The module the handler names, and its export. */
  readonly file: string;
  readonly exportName: string;
  /** `nodejs24.x` … */
  readonly runtime: string;
  readonly memoryMb: number;
  readonly timeoutSeconds: number;
  /** `JSON` or `Text` (the function's LoggingConfig). */
  readonly logFormat: string;
  /** The function's variables exactly as the template has them. */
  readonly variables: Readonly<Record<string, TemplateValue>>;
}

export interface BundleSet {
  readonly outdir: string;
  readonly functions: Readonly<Record<FunctionId, FunctionBundle>>;
  /** What each resource a `Ref` may name stands for locally (from the stack's outputs). */
  readonly refs: Readonly<Record<string, { table: TableId } | { queue: QueueId }>>;
}

/** The cloud assembly is missing something the local runtime needs (a bundling or template fault). */
export class BundleError extends Error {
  override name = 'BundleError';
}

interface TemplateResource {
  Type: string;
  Properties?: {
    Code?: { S3Key?: string };
    Handler?: string;
    Runtime?: string;
    MemorySize?: number;
    Timeout?: number;
    LoggingConfig?: { LogFormat?: string };
    Environment?: { Variables?: Record<string, TemplateValue> };
  };
}
interface Template {
  Resources: Record<string, TemplateResource>;
  Outputs?: Record<string, { Value: TemplateValue }>;
}

/**
 * Synthesizes into `outdir` (bundling every function) and reads the bundles. `context`: cdk.json
 * context keys, as `cdk synth -c` would pass them.
 */
export function synthesizeBundles(outdir: string, context: Record<string, unknown> = {}): BundleSet {
  mkdirSync(outdir, { recursive: true });
  const app = new App({ outdir: resolve(outdir), context });
  const stack = buildApp(app);
  const template = app.synth().getStackByName(stack.stackName).template as Template;
  const logicalIds = Object.fromEntries(
    functionList.map((def) => {
      const construct = stack.node.tryFindChild(functionConstructId(def.id));
      if (!construct?.node.defaultChild) throw new BundleError(`the stack has no construct ${functionConstructId(def.id)} for function ${def.id}`);
      return [def.id, stack.getLogicalId(construct.node.defaultChild as CfnElement)];
    }),
  ) as Record<FunctionId, string>;
  return readBundles(resolve(outdir), template, logicalIds);
}

/** The bundles of a synthesized template (`logicalIds`: each function's resource). */
export function readBundles(outdir: string, template: Template, logicalIds: Record<FunctionId, string>): BundleSet {
  const functions = {} as Record<FunctionId, FunctionBundle>;
  for (const def of functionList) {
    const logicalId = logicalIds[def.id];
    const resource = template.Resources[logicalId];
    const p = resource?.Properties;
    if (resource?.Type !== 'AWS::Lambda::Function' || !p) throw new BundleError(`${def.id}: no AWS::Lambda::Function ${logicalId} in the template`);
    const key = p.Code?.S3Key;
    if (!key) throw new BundleError(`${def.id}: the template names no code asset`);
    const dir = join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
    const handler = p.Handler ?? '';
    const dot = handler.lastIndexOf('.');
    if (dot <= 0) throw new BundleError(`${def.id}: handler "${handler}" is not module.export`);
    const file = ['.mjs', '.js', '.cjs'].map((ext) => join(dir, handler.slice(0, dot) + ext)).find((f) => existsSync(f));
    if (!file) throw new BundleError(`${def.id}: no module ${handler.slice(0, dot)}(.mjs|.js|.cjs) in ${dir}`);
    functions[def.id] = {
      fn: def.id,
      logicalId,
      dir,
      file,
      exportName: handler.slice(dot + 1),
      runtime: p.Runtime ?? '',
      memoryMb: p.MemorySize ?? 128,
      timeoutSeconds: p.Timeout ?? 3,
      logFormat: p.LoggingConfig?.LogFormat ?? 'Text',
      variables: p.Environment?.Variables ?? {},
    };
  }
  return { outdir, functions, refs: refsOf(template) };
}

/** Tables and queues by the logical id a `Ref` names, from the stack's `<table>TableName` / `<queue>QueueUrl` outputs. */
function refsOf(template: Template): BundleSet['refs'] {
  const refs: Record<string, { table: TableId } | { queue: QueueId }> = {};
  const refOf = (output: string): string => {
    const value = template.Outputs?.[output]?.Value;
    const ref = typeof value === 'object' ? value.Ref : undefined;
    if (typeof ref !== 'string') throw new BundleError(`the template has no output ${output} naming its resource`);
    return ref;
  };
  for (const id of Object.keys(tables) as TableId[]) refs[refOf(`${id}TableName`)] = { table: id };
  for (const id of Object.keys(queues) as QueueId[]) refs[refOf(`${id}QueueUrl`)] = { queue: id };
  return refs;
}

/** What the local stack provides for the references and the config values. */
export interface LocalResources {
  readonly tableNames: Readonly<Record<TableId, string>>;
  readonly queueUrls: Readonly<Record<QueueId, string>>;
  /**
   * The env the local stack gives handlers in source mode (its config values — the test stack's or
   * `npm start`'s — and the endpoints of what it stands in for, e.g. the realtime API). It supplies
   * the values of variables the function's template HAS: a config value replaces the template's
   * literal, and a value the template builds from a resource the local stack serves (not a table
   * or queue) is taken from here by the variable's name. Nothing is added.
   */
  readonly config: Readonly<Record<string, string | undefined>>;
}

const configVars = new Set<string>(Object.values(configKeys).map((k) => k.envVar));

/**
 * The variables of `bundle` with every reference resolved to its local name or URL. A value that
 * cannot be resolved fails here, naming the function and the variable (in AWS it would be a
 * deployment fault; here it must not become a silent `undefined`).
 */
export function resolveVariables(set: BundleSet, bundle: FunctionBundle, local: LocalResources): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(bundle.variables)) {
    if (typeof value === 'string') {
      out[name] = configVars.has(name) && local.config[name] !== undefined ? local.config[name] : value;
      continue;
    }
    const ref = typeof value.Ref === 'string' && Object.keys(value).length === 1 ? set.refs[value.Ref] : undefined;
    if (ref) out[name] = 'table' in ref ? local.tableNames[ref.table] : local.queueUrls[ref.queue];
    else if (local.config[name] !== undefined && !configVars.has(name)) out[name] = local.config[name]!;
    else throw new BundleError(`${bundle.fn}: variable ${name} is ${JSON.stringify(value)}, which the local runtime cannot resolve`);
  }
  return out;
}
