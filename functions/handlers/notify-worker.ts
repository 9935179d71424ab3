/** The notify lane's consumer (lib/defs/lanes.ts: notify). */
import { laneHandler } from './lane-worker.js';

export const handler = laneHandler('notify');
