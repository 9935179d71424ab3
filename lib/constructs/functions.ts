/**
 * One NodejsFunction per shared function definition. Each resource a function uses is bound in
 * one call — env var and IAM grant together — with exactly the access its definition declares:
 * the listed DynamoDB actions on the table's ARN (no index ARN, no Scan), and — instead of the
 * managed AWSLambdaBasicExecutionRole, which may write to every log group — log writes to the
 * function's own log group only.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  type ConfigKey,
  constructId,
  configKeys,
  type FunctionDef,
  type FunctionId,
  functionList,
  type QueueId,
  queues,
  type TableAccess,
  type TableId,
  tables,
} from '../defs/index.js';
import { LAMBDA_NODE_MAJOR } from '../defs/runtime.js';
import { bundleAssetHash } from './bundle-hash.js';

const projectRoot = new URL('../..', import.meta.url).pathname;

/** Where a function's config value comes from in AWS: cdk.json context, else the default. */
export function contextConfig(scope: Construct, key: ConfigKey): string {
  const def = configKeys[key];
  const value: unknown = scope.node.tryGetContext(def.contextKey);
  return value === undefined || value === null ? def.default : String(value);
}

/** The Lambda runtime of LAMBDA_NODE_MAJOR (fails synth if this aws-cdk-lib does not know it). */
export function lambdaRuntime(): lambda.Runtime {
  const name = `nodejs${LAMBDA_NODE_MAJOR}.x`;
  const runtime = lambda.Runtime.ALL.find((r) => r.name === name);
  if (!runtime) throw new Error(`aws-cdk-lib has no Lambda runtime ${name} (lib/defs/runtime.ts)`);
  return runtime;
}

/** The construct id of function `id` in the stack (`me` → `MeFunction`): how the local runtime finds its bundle. */
export const functionConstructId = (id: FunctionId): string => constructId(id, 'Function');

/** How every function is bundled (the same options go into its asset hash: bundle-hash.ts). */
const BUNDLING = {
  forceDockerBundling: false,
  format: OutputFormat.ESM,
  target: `node${LAMBDA_NODE_MAJOR}`,
  minify: true,
  sourceMap: false,
  mainFields: ['module', 'main'],
  // The shipped bundle is the tested bundle: the SDK goes in, pinned by our lockfile.
  externalModules: [],
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
};

export function createFunctions(
  scope: Construct,
  resources: { tables: Record<TableId, dynamodb.Table>; queues: Record<QueueId, sqs.Queue> },
): Record<FunctionId, NodejsFunction> {
  const out = {} as Record<FunctionId, NodejsFunction>;
  for (const def of functionList) out[def.id] = createFunction(scope, def, resources);
  return out;
}

function createFunction(
  scope: Construct,
  def: FunctionDef,
  resources: { tables: Record<TableId, dynamodb.Table>; queues: Record<QueueId, sqs.Queue> },
): NodejsFunction {
  const name = constructId(def.id);
  const logGroup = new logs.LogGroup(scope, `${name}Logs`, {
    retention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const role = new iam.Role(scope, `${name}Role`, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: `tickfeed ${def.id}: exactly the access lib/defs/functions.ts declares`,
  });
  // The log group exists (created above): no logs:CreateLogGroup, and only this group.
  role.addToPolicy(new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }));
  const fn = new NodejsFunction(scope, functionConstructId(def.id), {
    role,
    entry: `${projectRoot}${def.entry}`,
    handler: 'handler',
    runtime: lambdaRuntime(),
    architecture: lambda.Architecture.ARM_64,
    memorySize: def.memoryMb,
    timeout: Duration.seconds(def.timeoutSeconds),
    logGroup,
    loggingFormat: lambda.LoggingFormat.JSON,
    projectRoot,
    depsLockFilePath: `${projectRoot}package-lock.json`,
    environment: {
      POWERTOOLS_SERVICE_NAME: 'tickfeed',
      ...Object.fromEntries(def.config.map((key) => [configKeys[key].envVar, contextConfig(scope, key)])),
    },
    bundling: { ...BUNDLING, assetHash: bundleAssetHash(projectRoot, def.entry, BUNDLING) },
  });
  for (const [id, access] of Object.entries(def.tables) as [TableId, TableAccess][]) {
    bindTable(fn, resources.tables[id], tables[id].envVar, access);
  }
  for (const id of def.sendsTo) {
    fn.addEnvironment(queues[id].envVar, resources.queues[id].queueUrl);
    resources.queues[id].grantSendMessages(fn);
  }
  return fn;
}

/** The table's name in the env, and exactly `actions` on the table itself (never `<table>/index/*`). */
function bindTable(fn: NodejsFunction, table: dynamodb.Table, envVar: string, actions: TableAccess): void {
  fn.addEnvironment(envVar, table.tableName);
  if (actions.length === 0) return;
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: actions.map((a) => `dynamodb:${a}`), resources: [table.tableArn] }));
}
