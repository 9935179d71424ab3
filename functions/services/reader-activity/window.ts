import { setting } from '../../../lib/defs/config.js';

/** FANOUT_ACTIVE_WINDOW in ticks (ns), or undefined for `off` (copy to every follower). */
export function activeWindowTicks(): bigint | undefined {
  const ms = setting('FANOUT_ACTIVE_WINDOW');
  return ms === undefined ? undefined : BigInt(ms) * 1_000_000n;
}
