/** The fanout lane's consumer (lib/defs/lanes.ts: fanout). */
import { laneHandler } from './lane-worker.js';

export const handler = laneHandler('fanout');
