/** The maintenance lane's consumer (lib/defs/lanes.ts: maintenance). */
import { laneHandler } from './lane-worker.js';

export const handler = laneHandler('maintenance');
