/**
 * getActivityWindow (?window=24h): a user's recent activity: the window's buckets
 * (oldest first, empty ones included), their total and a segment (power / casual / inactive).
 * The window is rounded up to whole buckets and may not exceed what is kept (default 24 × 1 h).
 * Users read their own; a token with the tickfeed/admin scope reads anyone's (403 otherwise).
 */
import { setting, windowSetting } from '../../lib/defs/config.js';
import { parseDuration } from '../../lib/defs/durations.js';
import { ValidationError } from '../model/domain-errors.js';
import { bucketsFor, readActivityWindow } from '../services/rollups/windows.js';
import { requireSelfOrAdmin } from '../services/access.js';
import { json, routes } from '../http/handler.js';

export const handler = routes('activityRead', {
  getActivityWindow: async ({ caller, path, query }) => {
    const { userId } = path;
    requireSelfOrAdmin(caller.userId, caller.admin, userId, 'activity window'); // 403 before anything is read
    const cfg = windowSetting();
    const raw = query.window;
    let n = cfg.buckets;
    if (raw !== undefined) {
      try {
        n = bucketsFor(parseDuration(raw) ?? Number.NaN, cfg);
      } catch (error) {
        throw new ValidationError('Invalid window.', [{ field: 'query.window', message: (error as Error).message }]);
      }
    }
    const now = Date.now();
    return json(200, { userId, windowSeconds: (n * cfg.bucketMs) / 1000, ...(await readActivityWindow(userId, now, n, cfg, setting('ACTIVITY_SEGMENTS'))) });
  },
});
