/**
 * The local stack with every function served from its shipped bundle: the same servers, tables,
 * queues and pollers as `startLocalStack`, and handlers from `bundles` (local/bundles.ts) in
 * sandboxes of their own (local/bundle-runtime.ts). The bundle mode is set before the stack
 * starts, so no poller ever reaches a source handler.
 */
import type { FunctionId } from '../lib/defs/index.js';
import { type BundleRuntime, createBundleRuntime } from './bundle-runtime.js';
import type { BundleSet } from './bundles.js';
import { useBundles } from './handlers.js';
import { DEFAULT_SQS_CONCURRENCY, type LocalStack, type LocalStackOptions, startLocalStack } from './stack.js';

export interface BundledStack extends LocalStack {
  /** Invocations per function so far (every function of the set, 0 included). */
  invocations(): Record<FunctionId, number>;
}

export async function startBundledStack(
  opts: LocalStackOptions & { readonly bundles: BundleSet; readonly onInvoke?: (fn: FunctionId) => void },
): Promise<BundledStack> {
  let ready!: (runtime: BundleRuntime) => void;
  let failed!: (error: unknown) => void;
  const pending = new Promise<BundleRuntime>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  pending.catch(() => undefined);
  useBundles(pending);
  let stack: LocalStack;
  try {
    stack = await startLocalStack(opts);
  } catch (error) {
    failed(error);
    useBundles(undefined);
    throw error;
  }
  const runtime = createBundleRuntime({
    set: opts.bundles,
    local: {
      tableNames: stack.tableNames,
      queueUrls: stack.queueUrls,
      config: stack.env,
      dynamoEndpoint: stack.dynamoEndpoint,
      sqsEndpoint: stack.sqsEndpoint,
      otherEndpoints: Object.fromEntries(Object.entries(stack.env).filter(([name]) => name.startsWith('AWS_ENDPOINT_URL_') && !/_(DYNAMODB|SQS)$/.test(name))),
    },
    onInvoke: opts.onInvoke,
    // A worker thread per instance costs a bundle load: no more per function than a lane's poll
    // loops need. A burst of API requests shares them (each waits for an idle one) instead of
    // starting a sandbox per request — which, on a busy machine, ran past the API's timeout.
    maxInstances: opts.sqsConcurrency ?? DEFAULT_SQS_CONCURRENCY,
  });
  ready(runtime);
  return {
    ...stack,
    invocations: () => runtime.invocations(),
    async stop() {
      await stack.stop(); // the pollers first: nothing new reaches a sandbox
      await runtime.stop();
      useBundles(undefined);
    },
  };
}
