/**
 * Lambda's instance model for the local runtime. Lambda runs one invocation at a time per
 * instance; invocations that overlap get instances of their own (module scope and globals are
 * never shared), and an instance that is idle again serves a later invocation (a warm start).
 * Each function of the local runtime is a pool of such instances (local/handlers.ts):
 *
 * - an invocation takes an idle instance (the one used last: warm, and the pool stays small) or,
 *   when every instance is busy, starts one (a cold start) — so instances are created lazily and
 *   never outnumber the invocations that were in flight at once: for an SQS lane its poll loops,
 *   for a stream source its shards, for the HTTP API the requests under way;
 * - an instance never runs two invocations at once: it is back in the pool only once its
 *   invocation has ended (a result, an error, or past a timeout the caller gave up on);
 * - an instance whose start failed (the module threw at load: Lambda's init error) fails that
 *   invocation and is not kept; one that died (a crashed bundle sandbox) is dropped and replaced
 *   by the next invocation that needs one;
 * - `max` (optional) caps the instances, like a function's reserved concurrency, except that an
 *   invocation beyond it waits for an instance instead of being throttled (bundle mode: a worker
 *   per instance is not free).
 *
 * What an instance is depends on the runtime: a fresh evaluation of the handler's entry module
 * (source mode), or a worker thread running the shipped bundle (bundle mode,
 * local/bundle-runtime.ts).
 */
import type { AnyHandler } from './handlers.js';

/** One instance of a function: runs one invocation at a time (the pool sees to that). */
export interface Instance {
  readonly invoke: AnyHandler;
  /** False once it can serve no more invocations (its sandbox died). Default: always alive. */
  alive?(): boolean;
  stop?(): Promise<void>;
}

export interface InstancePool {
  /** Runs one invocation on an idle instance, or on a new one when none is idle. */
  readonly invoke: AnyHandler;
  /**
   * Calls `run` once an instance is ready for one invocation, with that instance's handler: what
   * `run` times from then on is the invocation's own time, not a cold start's nor the wait for an
   * idle instance (Lambda's function timeout does not count the init phase). The instance is
   * free again once its invocation has ended, even if `run` stopped waiting for it earlier.
   */
  use<T>(run: (invoke: AnyHandler) => Promise<T>): Promise<T>;
  /**
   * Starts an instance and keeps it idle, unless one is idle already: a cold start ahead of the
   * invocations, so that it does not run on their clock (Lambda's init phase is not the invoke's).
   */
  warm(): Promise<void>;
  /** Instances started so far and still kept (busy or idle). */
  size(): number;
  /** Stops every instance; invocations after this fail. */
  stop(): Promise<void>;
}

export function createInstancePool(start: () => Promise<Instance>, opts: { readonly max?: number } = {}): InstancePool {
  const max = opts.max ?? Number.POSITIVE_INFINITY;
  const idle: Instance[] = [];
  const kept = new Set<Instance>();
  /** Instances being started: they count against `max` before they exist. */
  let starting = 0;
  /** Invocations waiting for an instance (`max` reached): woken one at a time as instances free up. */
  const waiting: (() => void)[] = [];
  let stopped = false;

  const alive = (instance: Instance) => instance.alive?.() ?? true;
  const wakeOne = () => waiting.shift()?.();

  async function acquire(): Promise<Instance> {
    for (;;) {
      if (stopped) throw new Error('the function’s instances are stopped');
      const warm = idle.pop();
      if (warm && alive(warm)) return warm;
      if (warm) {
        kept.delete(warm);
        continue;
      }
      if (kept.size + starting < max) {
        starting++;
        let instance: Instance;
        try {
          instance = await start();
        } catch (error) {
          starting--;
          wakeOne(); // its place is free again
          throw error;
        }
        starting--;
        kept.add(instance);
        return instance;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  }

  function release(instance: Instance): void {
    if (alive(instance) && !stopped) idle.push(instance);
    else kept.delete(instance);
    wakeOne();
  }

  async function use<T>(run: (invoke: AnyHandler) => Promise<T>): Promise<T> {
    const instance = await acquire();
    let invocation: Promise<unknown> | undefined;
    const once: AnyHandler = (event, context) => {
      if (invocation) throw new Error('an instance taken for one invocation was invoked twice');
      invocation = instance.invoke(event, context);
      return invocation;
    };
    try {
      return await run(once);
    } finally {
      if (invocation)
        void invocation.then(
          () => release(instance),
          () => release(instance),
        );
      else release(instance);
    }
  }

  return {
    invoke: (event, context) => use((invoke) => invoke(event, context)),
    use,
    warm: async () => release(await acquire()),
    size: () => kept.size,
    async stop() {
      stopped = true;
      for (const wake of waiting.splice(0)) wake();
      const all = [...kept];
      kept.clear();
      idle.length = 0;
      await Promise.all(all.map(async (instance) => instance.stop?.()));
    },
  };
}
