/**
 * Runs each function from its shipped bundle (local/bundles.ts) the way Lambda does: each
 * instance of a function in a module scope and globals of its own — a worker thread, plain Node
 * (no loader of the local runtime's), started when an invocation finds every instance of the
 * function busy (a cold start) and kept for later ones (warm starts), one invocation at a time
 * (local/instances.ts) — with the environment the template gives that function and nothing of
 * this process's: its variables (references resolved to local names and URLs), what Lambda itself
 * sets (region, credentials, function name, memory, …) and the endpoints, which are the
 * function's own local-IAM proxy (local/iam-proxy.ts), shared by its instances.
 * An invocation crosses to the worker as a message: the event as Lambda would pass it (plain
 * data), the context's fields; the result or the error comes back. A worker that dies (an
 * uncaught error, like a crashed sandbox) is dropped; the next invocation that needs an instance
 * starts a fresh one.
 */
import { Worker } from 'node:worker_threads';
import { type FunctionId, queues, tables, type TableId, type QueueId } from '../lib/defs/index.js';
import { localCredentials, localRegion } from './aws-local.js';
import type { BundleSet, LocalResources } from './bundles.js';
import { resolveVariables } from './bundles.js';
import type { AnyHandler } from './handlers.js';
import { type IamProxy, startIamProxy } from './iam-proxy.js';
import { createInstancePool, type Instance, type InstancePool } from './instances.js';

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
  /**
   * Instances (worker threads) per function at most; an invocation beyond waits for an idle one.
   * Default: no limit — no more start than invocations were in flight at once.
   */
  readonly maxInstances?: number;
}

export interface BundleRuntime {
  /** Function `fn`'s handler, served by its bundle. */
  handler(fn: FunctionId): AnyHandler;
  /** Calls `run` with the handler of one instance of `fn`, once it is ready (InstancePool.use). */
  use<T>(fn: FunctionId, run: (invoke: AnyHandler) => Promise<T>): Promise<T>;
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
  const pools = new Map<FunctionId, InstancePool>();
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

  /** The environment of `fn`'s sandboxes. */
  async function envOf(fn: FunctionId): Promise<Record<string, string>> {
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
    return env;
  }

  /** A cold start: a worker of its own, which imports the bundle once and serves one invocation at a time. */
  async function start(fn: FunctionId): Promise<Instance> {
    const bundle = set.functions[fn];
    const env = await envOf(fn);
    const worker = new Worker(BOOTSTRAP, { eval: true, env, execArgv: [], workerData: { file: bundle.file, exportName: bundle.exportName } });
    const sandbox: Sandbox = { worker, pending: new Map() };
    let dead = false;
    worker.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: { name: string; message: string; stack?: string } }) => {
      const call = sandbox.pending.get(id);
      sandbox.pending.delete(id);
      if (!call) return;
      if (error) call.reject(Object.assign(new Error(error.message), { name: error.name, stack: error.stack }));
      else call.resolve(result);
    });
    const fail = (error: Error) => {
      dead = true; // the pool drops it; the next invocation that needs an instance starts a fresh one
      for (const call of sandbox.pending.values()) call.reject(error);
      sandbox.pending.clear();
    };
    worker.on('error', (error) => fail(error));
    worker.on('exit', (code) => fail(new Error(`${fn}: its sandbox exited (code ${code})`)));
    return {
      invoke: (event, context) =>
        new Promise((resolve, reject) => {
          if (dead) return reject(new Error(`${fn}: its sandbox exited`));
          const id = nextId++;
          sandbox.pending.set(id, { resolve, reject });
          worker.postMessage({ id, event: event as unknown, context: plainContext(context) });
        }),
      alive: () => !dead,
      stop: async () => void (await worker.terminate()),
    };
  }

  const poolOf = (fn: FunctionId) => {
    let pool = pools.get(fn);
    if (!pool) {
      pool = createInstancePool(() => start(fn), { max: opts.maxInstances });
      pools.set(fn, pool);
    }
    return pool;
  };

  async function use<T>(fn: FunctionId, run: (invoke: AnyHandler) => Promise<T>): Promise<T> {
    if (stopped) throw new Error(`${fn}: the bundle runtime is stopped`);
    if (!set.functions[fn]) throw new Error(`no bundle for function ${fn}`);
    return poolOf(fn).use((invoke) =>
      run((event, context) => {
        counts[fn] += 1;
        opts.onInvoke?.(fn);
        return invoke(event, context);
      }),
    );
  }

  return {
    handler: (fn) => (event, context) => use(fn, (invoke) => invoke(event, context)),
    use,
    invocations: () => ({ ...counts }),
    async stop() {
      stopped = true;
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((pool) => pool.stop()));
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
