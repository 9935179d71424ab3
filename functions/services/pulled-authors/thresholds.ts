import { setting } from '../../../lib/defs/config.js';

/**
 * Hybrid fan-out thresholds, with hysteresis: an author is pulled at ≥ FANOUT_PULL_THRESHOLD
 * followers and goes back to push below 90 % of it, so one hovering at T does not flip on every
 * follow/unfollow (each flip costs a pass over all followers).
 */
export function pullThresholds(): { pullAt: number; unpullBelow: number } {
  const pullAt = setting('FANOUT_PULL_THRESHOLD');
  return { pullAt, unpullBelow: Math.max(1, Math.floor(pullAt * 0.9)) };
}
