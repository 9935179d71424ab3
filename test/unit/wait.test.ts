import { describe, expect, it } from 'vitest';
import { eventually } from '../support/wait.js';

describe('eventually', () => {
  it('returns the first truthy value the probe gives', async () => {
    let calls = 0;
    expect(await eventually(() => (++calls === 3 ? 'ready' : undefined), { intervalMs: 1 })).toBe('ready');
    expect(calls).toBe(3);
  });

  it('probes again after the probe throws', async () => {
    let calls = 0;
    const value = await eventually(
      () => {
        if (++calls < 3) throw new Error('not yet');
        return calls;
      },
      { intervalMs: 1 },
    );
    expect(value).toBe(3);
  });

  it('fails at once on a failed expect inside the probe', async () => {
    let calls = 0;
    const failing = eventually(
      () => {
        calls++;
        expect(calls).toBe(-1);
        return true;
      },
      { timeoutMs: 5_000, intervalMs: 1 },
    );
    await expect(failing).rejects.toThrow(/expected 1 to be -1/);
    expect(calls).toBe(1);
  });

  it('names what never came, and the last error, when time runs out', async () => {
    const never = eventually(
      () => {
        throw new Error('still nothing');
      },
      { what: 'the copy', timeoutMs: 20, intervalMs: 5 },
    );
    await expect(never).rejects.toThrow('the copy not met within 20 ms: Error: still nothing');
  });
});
