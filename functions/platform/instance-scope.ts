/**
 * What a Lambda instance keeps across its invocations: caches, never one invocation's state. In
 * AWS an instance is a process of its own, so module scope is the instance's. The local runtime's
 * source mode evaluates only a function's entry module per instance (local/handlers.ts); the
 * services, stores and platform modules it imports are the process's, shared by every instance of
 * every function, and a cache there would be one cache for all of them (a reader asked for once
 * across instances, one rate allowance for every API instance), which no deployed stack has.
 * So such a cache is made with `perInstance`: the local runtime runs each invocation in its
 * instance's scope (`runInInstance`), and the cache is that scope's. Outside any scope (Lambda,
 * the bundle mode's worker per instance, a test calling a service) it is the module's one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<object>();

/** The local runtime: runs one invocation of `instance` (any object, one per instance). */
export const runInInstance = <T>(instance: object, fn: () => T): T => current.run(instance, fn);

/** A value each instance makes once, on first use, and keeps: `make` is called once per instance. */
export function perInstance<T extends object>(make: () => T): () => T {
  let outside: T | undefined;
  const byInstance = new WeakMap<object, T>();
  return () => {
    const instance = current.getStore();
    if (instance === undefined) return (outside ??= make());
    let value = byInstance.get(instance);
    if (value === undefined) byInstance.set(instance, (value = make()));
    return value;
  };
}
