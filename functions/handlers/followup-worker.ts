/** The followup lane's consumer (lib/defs/lanes.ts: followup). */
import { laneHandler } from './lane-worker.js';

export const handler = laneHandler('followup');
