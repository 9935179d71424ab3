/**
 * Runs each function from its shipped bundle (local/bundles.ts) the way Lambda does: in a module
 * scope of its own — a worker thread per function, plain Node (no loader of the local runtime's),
 * started at the first invocation (a cold start) and kept — with the environment the template
 * gives that function and nothing of this process's: its variables (references resolved to local
 * names and URLs), what Lambda itself sets (region, credentials, function name, memory, …) and
 * the endpoints, which are the function's own local-IAM proxy (local/iam-proxy.ts).
 * An invocation crosses to the worker as a message: the event as Lambda would pass it (plain
 * data), the context's fields; the result or the error comes back. A worker that dies (an
 * uncaught error, like a crashed sandbox) is replaced at the next invocation.
 */
import { Worker } from 'node:worker_threads';
import { type FunctionId, queues, tables, type TableId, type QueueId } from '../lib/defs/index.js';
import { localCredentials, localRegion } from './aws-local.js';
import type { BundleSet, LocalResources } from './bundles.js';
import { resolveVariables } from './bundles.js';
import type { AnyHandler } from './handlers.js';
import { type IamProxy, startIamProxy } from './iam-proxy.js';

export interface BundleRuntimeOptions {
  readonly set: BundleSet;
  readonly local: LocalResources & {
    readonly dynamoEndpoint: string;
    readonly sqsEndpoint: string;
    /** Other `AWS_ENDPOINT_URL_*` the local stack serves (passed on as they are; no IAM check). */
    readonly otherEndpoints?: Readonly<Record<string, string>>;
  };
  /** Told of every invocation, before it runs (e.g. to count them). */
  readonly onInvoke?: (fn: FunctionId) => void;
}

export interface BundleRuntime {
  /** Function `fn`'s handler, served by its bundle. */
  handler(fn: FunctionId): AnyHandler;
  /** Invocations per function so far. */
  invocations(): Record<FunctionId, number>;
  stop(): Promise<void>;
}

/** Runs inside the worker: imports the bundle once, then serves invocations one message each. */
const BOOTSTRAP = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const ready = import(pathToFileURL(workerData.file).href).then((mod) => {
  const handler = mod[workerData.exportName];
  if (typeof handler !== 'function') throw new Error(workerData.file + ' exports no function ' + workerData.exportName);
  return handler;
});
ready.catch(() => undefined); // reported per invocation, as Lambda reports an init error
parentPort.on('message', async ({ id, event, context }) => {
  try {
    const handler = await ready;
    const deadline = context.deadline;
    const result = await handler(event, { ...context, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) });
    parentPort.postMessage({ id, result });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    parentPort.postMessage({ id, error: { name: e.name, message: e.message, stack: e.stack } });
  }
});
`;

interface Sandbox {
  readonly worker: Worker;
  readonly pending: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>;
}

export function createBundleRuntime(opts: BundleRuntimeOptions): BundleRuntime {
  const { set, local } = opts;
  const counts = Object.fromEntries(Object.keys(set.functions).map((fn) => [fn, 0])) as Record<FunctionId, number>;
  const proxies = new Map<FunctionId, Promise<IamProxy>>();
  const sandboxes = new Map<FunctionId, Promise<Sandbox>>();
  const live = new Map<FunctionId, Sandbox>();
  let nextId = 0;
  let stopped = false;

  const names: NodeJS.ProcessEnv = {};
  for (const id of Object.keys(tables) as TableId[]) names[tables[id].envVar] = local.tableNames[id];
  for (const id of Object.keys(queues) as QueueId[]) names[queues[id].envVar] = local.queueUrls[id];

  const proxyOf = (fn: FunctionId) => {
    let proxy = proxies.get(fn);
    if (!proxy) {
      proxy = startIamProxy({ fn, dynamoEndpoint: local.dynamoEndpoint, sqsEndpoint: local.sqsEndpoint, names });
      proxies.set(fn, proxy);
    }
    return proxy;
  };

  async function start(fn: FunctionId): Promise<Sandbox> {
    const bundle = set.functions[fn];
    const proxy = await proxyOf(fn);
    const endpoint = proxy.url;
    const queueUrls = Object.fromEntries(Object.entries(local.queueUrls).map(([id, url]) => [id, proxy.queueUrlFor(url)])) as Record<QueueId, string>;
    const env: Record<string, string> = {
      ...resolveVariables(set, bundle, { ...local, queueUrls }),
      // What Lambda sets in every sandbox (a subset: what SDKs, Powertools and handlers read).
      AWS_REGION: localRegion,
      AWS_DEFAULT_REGION: localRegion,
      AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
      AWS_LAMBDA_FUNCTION_NAME: `tickfeed-${fn}`,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(bundle.memoryMb),
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/tickfeed-${fn}`,
      AWS_LAMBDA_LOG_STREAM_NAME: 'local',
      AWS_LAMBDA_LOG_FORMAT: bundle.logFormat,
      AWS_EXECUTION_ENV: `AWS_Lambda_${bundle.runtime}`,
      LAMBDA_TASK_ROOT: bundle.dir,
      // Local only: the function's own IAM-checking endpoint in front of DynamoDB Local and the SQS
      // server, and whatever other service the local stack stands in for.
      ...local.otherEndpoints,
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
      AWS_ENDPOINT_URL_SQS: endpoint,
    };
    // The SDK's warning about Node 20 (no Lambda runtime runs it): quiet if the developer asked.
    const quiet = process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
    if (quiet !== undefined) env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = quiet;
    const worker = new Worker(BOOTSTRAP, { eval: true, env, execArgv: [], workerData: { file: bundle.file, exportName: bundle.exportName } });
    const sandbox: Sandbox = { worker, pending: new Map() };
    worker.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: { name: string; message: string; stack?: string } }) => {
      const call = sandbox.pending.get(id);
      sandbox.pending.delete(id);
      if (!call) return;
      if (error) call.reject(Object.assign(new Error(error.message), { name: error.name, stack: error.stack }));
      else call.resolve(result);
    });
    live.set(fn, sandbox);
    const fail = (error: Error) => {
      if (live.get(fn) === sandbox) {
        live.delete(fn);
        sandboxes.delete(fn); // the next invocation gets a fresh sandbox
      }
      for (const call of sandbox.pending.values()) call.reject(error);
      sandbox.pending.clear();
    };
    worker.on('error', (error) => fail(error));
    worker.on('exit', (code) => fail(new Error(`${fn}: its sandbox exited (code ${code})`)));
    return sandbox;
  }

  const sandboxOf = (fn: FunctionId) => {
    let sandbox = sandboxes.get(fn);
    if (!sandbox) {
      sandbox = start(fn);
      sandboxes.set(fn, sandbox);
    }
    return sandbox;
  };

  return {
    handler: (fn) => async (event, context) => {
      if (stopped) throw new Error(`${fn}: the bundle runtime is stopped`);
      if (!set.functions[fn]) throw new Error(`no bundle for function ${fn}`);
      counts[fn] += 1;
      opts.onInvoke?.(fn);
      const sandbox = await sandboxOf(fn);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        sandbox.pending.set(id, { resolve, reject });
        sandbox.worker.postMessage({ id, event, context: plainContext(context) });
      });
    },
    invocations: () => ({ ...counts }),
    async stop() {
      stopped = true;
      const all = [...sandboxes.values()];
      sandboxes.clear();
      await Promise.all(all.map(async (s) => (await s.catch(() => undefined))?.worker.terminate()));
      await Promise.all([...proxies.values()].map(async (p) => (await p).stop()));
    },
  };
}

/** The context's data (functions do not cross threads; the deadline is rebuilt on the other side). */
function plainContext(context: unknown): Record<string, unknown> {
  const c = (context ?? {}) as Record<string, unknown> & { getRemainingTimeInMillis?: () => number };
  const fields = Object.fromEntries(Object.entries(c).filter(([, v]) => typeof v !== 'function'));
  const remaining = typeof c.getRemainingTimeInMillis === 'function' ? c.getRemainingTimeInMillis() : 900_000;
  return { ...fields, deadline: Date.now() + remaining };
}
