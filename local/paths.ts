import { resolve } from 'node:path';

/** The local data directory (git-ignored): DynamoDB data, stream checkpoints, the JWT key pair. */
export const dataDir = resolve(process.env.TICKFEED_DATA_DIR ?? resolve(import.meta.dirname, '..', '.tickfeed'));
export const keysFile = resolve(dataDir, 'jwt-keys.json');
/** Where `npm start` tells other local tools (`npm run redrive`) its endpoints while it runs. */
export const endpointsFile = resolve(dataDir, 'endpoints.json');
