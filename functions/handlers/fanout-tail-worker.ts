/** The fanoutTail lane's consumer (lib/defs/lanes.ts: a large fan-out's further pages). */
import { laneHandler } from './lane-worker.js';

export const handler = laneHandler('fanoutTail');
