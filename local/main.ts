/**
 * `npm start`: the whole of tickfeed on this machine. Data persists in `.tickfeed/` unless
 * `--in-memory` is given. Ctrl-C stops everything, the DynamoDB Local JVM included.
 */
import { parseArgs } from 'node:util';
import { ensureConsoleBuilt } from './console-build.js';
import { JavaMissingError } from './java.js';
import { loadOrCreateKeys } from './jwt.js';
import { dataDir, endpointsFile, keysFile } from './paths.js';
import { removeEndpoints, writeEndpoints } from './endpoints.js';
import { configKeys } from '../lib/defs/index.js';
import { ConfigError, validateConfig } from '../lib/defs/index.js';
import { DataVersionError } from './data-version.js';
import { startLocalStack } from './stack.js';

const { values } = parseArgs({
  options: { 'in-memory': { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
});
if (values.help) {
  console.log('usage: npm start [-- --in-memory]\n  PORT=3000  HTTP port (127.0.0.1)\n  TICKFEED_DATA_DIR=.tickfeed');
  process.exit(0);
}

try {
  validateConfig((key) => process.env[configKeys[key].envVar]);
  const port = Number(process.env.PORT ?? 3000);
  if ((await ensureConsoleBuilt()) === 'built') console.log('built the web console (local/console/dist)');
  const stack = await startLocalStack({
    port,
    keys: await loadOrCreateKeys(keysFile),
    dataDir: values['in-memory'] ? undefined : dataDir,
    // Retry failed fan-out jobs after 5 s instead of the 3-minute visibility timeout.
    sqsRetryDelaySeconds: 5,
  });
  writeEndpoints(endpointsFile, stack); // for `npm run redrive`
  console.log(`tickfeed is running at ${stack.apiUrl}`);
  console.log(`  data: ${values['in-memory'] ? 'in memory (gone on exit)' : dataDir}`);
  console.log('  get a token:  npm run token -- alice');
  console.log('  the backend:  npm run token -- backend --scope tickfeed/admin');
  console.log(`  web console:  ${stack.apiUrl}/console/?user=alice`);
  console.log(`  try:          curl ${stack.apiUrl}/health`);
  console.log(`                curl -H "Authorization: Bearer $(npm run -s token -- alice)" ${stack.apiUrl}/me`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await stack.stop();
    removeEndpoints(endpointsFile);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  if (error instanceof JavaMissingError || error instanceof ConfigError || error instanceof DataVersionError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
