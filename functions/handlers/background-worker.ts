/** The background lane's consumer (lib/defs/lanes.ts: bookkeeping that yields, a reader's restamp). */
import { laneHandler } from './lane-worker.js';

export const handler = laneHandler('background');
