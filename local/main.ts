/**
 * `npm start`: the whole of tickfeed on this machine. Data persists in `.tickfeed/` unless
 * `--in-memory` is given. Ctrl-C stops everything, the DynamoDB Local JVM included.
 * `--bundles`: synthesize first (as `cdk synth`, into cdk.out) and serve every function from its
 * shipped bundle, each in a sandbox of its own with the template's environment (docs/runtime.md).
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
import { startBundledStack } from './bundled-stack.js';
import { synthesizeBundles } from './bundles.js';
import { resolve } from 'node:path';

const { values } = parseArgs({
  options: {
    'in-memory': { type: 'boolean', default: false },
    bundles: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(
    'usage: npm start [-- --in-memory] [-- --bundles]\n  --bundles  serve every function from its cdk.out bundle (synthesizes first)\n  PORT=3000  HTTP port (127.0.0.1)\n  TICKFEED_DATA_DIR=.tickfeed',
  );
  process.exit(0);
}

try {
  validateConfig((key) => process.env[configKeys[key].envVar]);
  const port = Number(process.env.PORT ?? 3000);
  if ((await ensureConsoleBuilt()) === 'built') console.log('built the web console (local/console/dist)');
  const options = {
    port,
    keys: await loadOrCreateKeys(keysFile),
    dataDir: values['in-memory'] ? undefined : dataDir,
    // Retry failed fan-out jobs after 5 s instead of the 3-minute visibility timeout.
    sqsRetryDelaySeconds: 5,
  };
  let stack;
  if (values.bundles) {
    const outdir = resolve(import.meta.dirname, '..', 'cdk.out');
    console.log(`synthesizing into ${outdir} (every function bundled, as cdk synth does)…`);
    const bundles = synthesizeBundles(outdir);
    stack = await startBundledStack({ ...options, bundles });
    console.log(`serving ${Object.keys(bundles.functions).length} functions from their bundles in ${outdir}`);
  } else {
    stack = await startLocalStack(options);
  }
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
