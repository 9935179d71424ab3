/** The fanoutBacklog lane's consumer (lib/defs/lanes.ts: fanout jobs that waited past FANOUT_BACKLOG_AFTER). */
import { laneHandler } from './lane-worker.js';

export const handler = laneHandler('fanoutBacklog');
