/**
 * The local runtime's instance pool (local/instances.ts), with stand-in instances: instances start
 * only when every one is busy, an idle one serves the next invocation, none runs two at once, a
 * cap makes invocations wait, and an instance that failed to start or died is not used again.
 * Invocations are held by promise gates, not by time.
 */
import { describe, expect, it } from 'vitest';
import { createInstancePool, type Instance } from '../../local/instances.js';

/** Stand-in instances that record who served what; each invocation waits for its gate. */
function instances() {
  const started: { id: number; busy: number; most: number; served: string[]; dead: boolean }[] = [];
  const gates = new Map<string, () => void>();
  const gate = (name: string) => new Promise<void>((resolve) => gates.set(name, resolve));
  const start = async (): Promise<Instance> => {
    const me = { id: started.length + 1, busy: 0, most: 0, served: [] as string[], dead: false };
    started.push(me);
    return {
      invoke: async (name: string) => {
        me.busy++;
        me.most = Math.max(me.most, me.busy);
        me.served.push(name);
        try {
          await gate(name);
          return me.id;
        } finally {
          me.busy--;
        }
      },
      alive: () => !me.dead,
    };
  };
  /** Lets invocation `name` end (once it is waiting at its gate). */
  const open = async (name: string) => {
    while (!gates.has(name)) await new Promise((r) => setImmediate(r));
    gates.get(name)!();
  };
  return { started, start, open };
}

describe('the instance pool', () => {
  it('starts an instance per invocation in flight, reuses idle ones, never runs two at once', async () => {
    const { started, start, open } = instances();
    const pool = createInstancePool(start);
    const a = pool.invoke('a');
    const b = pool.invoke('b');
    await Promise.all([open('a'), open('b')]);
    expect(await Promise.all([a, b])).toEqual([1, 2]);
    const c = pool.invoke('c'); // both idle now: the one used last serves it, warm
    await open('c');
    expect(await c).toBe(2);
    expect(started.map((s) => s.most)).toEqual([1, 1]);
    expect(pool.size()).toBe(2);
  });

  it('warms ahead of the invocations: their first finds its instance started', async () => {
    const { started, start, open } = instances();
    const pool = createInstancePool(start);
    await pool.warm();
    await pool.warm(); // one is idle: no second
    expect(started).toHaveLength(1);
    const a = pool.invoke('a');
    await open('a');
    expect(await a).toBe(1);
    expect(started).toHaveLength(1);
  });

  it('makes invocations beyond `max` wait for an idle instance', async () => {
    const { started, start, open } = instances();
    const pool = createInstancePool(start, { max: 1 });
    const a = pool.invoke('a');
    const b = pool.invoke('b');
    await open('a');
    await open('b');
    expect(await Promise.all([a, b])).toEqual([1, 1]);
    expect(started).toHaveLength(1);
    expect(started[0]!.served).toEqual(['a', 'b']);
    expect(started[0]!.most).toBe(1);
  });

  it('hands `use` an instance ready to invoke, and frees it when the invocation ends, not when `run` gives up', async () => {
    const { started, start, open } = instances();
    const pool = createInstancePool(start, { max: 1 });
    // A caller with a timeout: it stops waiting (here at once) while its invocation still runs.
    await expect(
      pool.use(async (invoke) => {
        expect(started).toHaveLength(1); // started before `run`: a timeout begun here times the invocation only
        void invoke('a');
        throw new Error('timed out');
      }),
    ).rejects.toThrow('timed out');
    const b = pool.invoke('b'); // waits: the instance still runs 'a'
    await open('a');
    await open('b');
    expect(await b).toBe(1);
    expect(started[0]!.most).toBe(1);
  });

  it('does not keep an instance whose start failed (an init error) nor one that died', async () => {
    const { started, start, open } = instances();
    let failNext = true;
    const pool = createInstancePool(
      async () => {
        if (failNext) {
          failNext = false;
          throw new Error('init failed');
        }
        return start();
      },
      { max: 1 },
    );
    await expect(pool.invoke('a')).rejects.toThrow('init failed');
    const b = pool.invoke('b');
    await open('b');
    expect(await b).toBe(1);
    started[0]!.dead = true; // its sandbox exited while idle
    const c = pool.invoke('c');
    await open('c');
    expect(await c).toBe(2);
    expect(pool.size()).toBe(1);
  });
});
