/**
 * A cache an instance keeps across invocations (platform/instance-scope.ts): in the local runtime's
 * source mode the module holding it is shared by every instance, so each invocation runs in its
 * instance's scope and gets that instance's cache; outside any scope (Lambda, a worker per
 * instance) the module's one.
 */
import { describe, expect, it } from 'vitest';
import { perInstance, runInInstance } from '../../functions/platform/instance-scope.js';

describe('perInstance', () => {
  it('outside any instance scope, one value, made once', () => {
    let made = 0;
    const cache = perInstance(() => ({ n: ++made }));
    expect(cache()).toBe(cache());
    expect(made).toBe(1);
  });

  it("two instances' invocations, interleaved, each get their own instance's value, across awaits", async () => {
    const cache = perInstance(() => new Map<string, number>());
    const [a, b] = [{}, {}];
    const invocation = (instance: object, key: string) =>
      runInInstance(instance, async () => {
        const before = cache();
        await new Promise((resolve) => setTimeout(resolve, 1));
        before.set(key, (before.get(key) ?? 0) + 1);
        return cache() === before ? before : undefined;
      });
    const [a1, b1, a2] = await Promise.all([invocation(a, 'x'), invocation(b, 'x'), invocation(a, 'y')]);
    expect(a1).toBeDefined();
    expect(a2).toBe(a1); // a later invocation of instance a: a warm cache
    expect(b1).not.toBe(a1);
    expect(Object.fromEntries(a1!)).toEqual({ x: 1, y: 1 });
    expect(Object.fromEntries(b1!)).toEqual({ x: 1 });
    expect(cache()).not.toBe(a1); // outside any scope: the module's own
  });
});
