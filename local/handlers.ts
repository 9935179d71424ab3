/**
 * Loads each function's handler from its entry file, exactly the module the CDK bundles, so the
 * local runtime runs the same code Lambda runs. Env vars must be set before an instance starts
 * (handlers read their config once at module load, like a cold start).
 * Or, once `useBundles` was called (`npm start -- --bundles`, the bundles test pass), from the
 * shipped bundles in cdk.out, each in a sandbox of its own (local/bundle-runtime.ts).
 *
 * Either way a function is a pool of instances, as in Lambda (local/instances.ts): one invocation
 * at a time per instance, a new instance when every one is busy. In source mode an instance is an
 * evaluation of the entry module of its own (imported under a URL of its own,
 * `…/lane-worker.ts?instance=3`), so the handler module's scope — what a handler builds at load,
 * like a lane worker's batch processor — is the instance's. The modules the entry imports
 * (services, stores, platform) are evaluated once per process and shared by every instance: there
 * live the SDK clients that local IAM checks and tests inject faults into, and the test seams
 * (clocks, retry timing). Per-invocation state must not sit there (the project's rule, as in
 * Lambda, where an instance's modules serve its invocations one after another), and a cache an
 * instance keeps across invocations is made per instance there (platform/instance-scope.ts: each
 * invocation runs in its instance's scope). Globals are shared too. The bundle mode isolates
 * completely: each instance is a worker thread with its own module graph and globals.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type FunctionId, functions } from '../lib/defs/index.js';
import type { BundleRuntime } from './bundle-runtime.js';
import { runInInstance } from '../functions/platform/instance-scope.js';
import { enforceGrants, runAs } from './iam.js';
import { createInstancePool, type Instance } from './instances.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers take Lambda event shapes of their own
export type AnyHandler = (event: any, context?: unknown) => Promise<any>;

const projectRoot = resolve(import.meta.dirname, '..');

/** A function's instances, whichever runtime serves them. */
interface FunctionInstances {
  use<T>(run: (invoke: AnyHandler) => Promise<T>): Promise<T>;
}
const cache = new Map<FunctionId, Promise<FunctionInstances>>();

/** How an invocation ended: its result, or what it threw. */
export type InvocationOutcome = { readonly result: unknown } | { readonly error: unknown };

/**
 * Sees every event a loaded handler is invoked with, in this process (tests: what a function
 * received). It may return a function that is told how that invocation ended (tests: wait for a
 * job to be done instead of for a while).
 */
export type InvocationTap = (fn: FunctionId, event: unknown) => void | ((outcome: InvocationOutcome) => void);
const taps = new Set<InvocationTap>();

/** Runs `invoke` with the taps told before and after. */
async function tapped(fn: FunctionId, event: unknown, invoke: () => Promise<unknown>): Promise<unknown> {
  const ends = [...taps].map((tap) => tap(fn, event)).filter((end) => typeof end === 'function');
  try {
    const result = await invoke();
    for (const end of ends) end({ result });
    return result;
  } catch (error) {
    for (const end of ends) end({ error });
    throw error;
  }
}

/** Adds `tap`; returns its remover. */
export function tapInvocations(tap: InvocationTap): () => void {
  taps.add(tap);
  return () => void taps.delete(tap);
}

let bundles: Promise<BundleRuntime> | undefined;

/**
 * From now on every function of this process is served by its bundle. A promise: invocations that
 * arrive before the runtime is ready (a poller started with the stack) wait for it. `undefined`
 * goes back to the sources.
 */
export function useBundles(runtime: Promise<BundleRuntime> | undefined): void {
  bundles = runtime;
  cache.clear();
}

function instancesOf(id: FunctionId): Promise<FunctionInstances> {
  let loaded = cache.get(id);
  if (!loaded && bundles) {
    // Local IAM is the bundle's own endpoint proxy here (its SDK is inside the bundle); the bundle
    // runtime keeps the function's instances.
    loaded = bundles.then((runtime) => ({ use: (run) => runtime.use(id, run) }));
    cache.set(id, loaded);
  }
  if (!loaded) {
    const pool = createInstancePool(() => startSourceInstance(id));
    // The first instance starts here, before any caller starts a timeout (as loading did before
    // there were instances): it transforms and loads the function's whole module graph, seconds
    // on a busy machine. Later instances evaluate the entry module only.
    const warmed: Promise<FunctionInstances> = pool.warm().then(() => pool);
    // An init error fails this load; the next one tries afresh.
    warmed.catch(() => {
      if (cache.get(id) === warmed) cache.delete(id);
    });
    loaded = warmed;
    cache.set(id, loaded);
  }
  return loaded;
}

/**
 * Calls `run` with the handler of one instance of function `id` once that instance is ready, so
 * a timeout `run` starts times the invocation only (the HTTP API's), not a cold start or the wait
 * for an idle instance.
 */
export async function withInstance<T>(id: FunctionId, run: (handler: AnyHandler) => Promise<T>): Promise<T> {
  const instances = await instancesOf(id);
  return instances.use((invoke) => run((event, context) => tapped(id, event, () => invoke(event, context))));
}

/** Function `id`'s handler: each call is one invocation, on an instance of its own while it runs. */
export function loadHandler(id: FunctionId): Promise<AnyHandler> {
  return instancesOf(id).then(() => (event, context) => withInstance(id, (handler) => handler(event, context)));
}

/**
 * The functions' SDK clients get the local IAM checks first (local/iam.ts): each invocation may
 * only make the calls its definition grants. Once per process: the clients are shared.
 */
let grantsEnforced: Promise<void> | undefined;
const enforceGrantsOnce = () =>
  (grantsEnforced ??= import('../functions/platform/clients.js')
    .then((clients) => enforceGrants(clients))
    // The realtime senders' management client exists once a function first sends: checked from then on.
    .then(() => import('../functions/platform/realtime-client.js'))
    .then((realtime) => realtime.whenManagementClient((management) => enforceGrants({ management }))));

/** Numbers every source instance of this process: each URL is a module evaluation no other instance shares. */
let instancesStarted = 0;

/** A cold start in source mode: the entry module evaluated afresh, under a URL of this instance's own. */
async function startSourceInstance(id: FunctionId): Promise<Instance> {
  await enforceGrantsOnce();
  const url = `${pathToFileURL(resolve(projectRoot, functions[id].entry)).href}?instance=${++instancesStarted}`;
  const mod = (await import(url)) as { handler?: AnyHandler };
  const handler = mod.handler;
  if (typeof handler !== 'function') throw new Error(`${functions[id].entry} exports no handler`);
  // The caches the services keep per instance (platform/instance-scope.ts) are this instance's.
  const scope = {};
  return { invoke: (event, context) => runAs(id, () => runInInstance(scope, () => handler(event, context))) };
}

/** A minimal Lambda context: enough for Powertools and for handlers that read the deadline. */
export function lambdaContext(fn: FunctionId, timeoutMs: number, requestId: string) {
  const deadline = Date.now() + timeoutMs;
  return {
    functionName: `tickfeed-${fn}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:tickfeed-${fn}`,
    memoryLimitInMB: String(functions[fn].memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/tickfeed-${fn}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
}
