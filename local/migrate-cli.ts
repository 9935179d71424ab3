/**
 * `npm run migrate` — brings stored data to this release's data model, or resumes a migration
 * that stopped (each Scan segment continues after its last checkpointed page), printing progress;
 * a second run finds the data current and does nothing.
 *
 *   npm run migrate                                  the local data directory (.tickfeed/, or
 *                                                    TICKFEED_DATA_DIR): copied aside first, as
 *                                                    npm start does; with npm start running, its tables
 *   npm run migrate -- --outputs cdk-outputs.json    a deployed stack's tables (your AWS credentials
 *                                                    and region), beside the maintenance lane's jobs
 *   npm run migrate -- --endpoint http://127.0.0.1:N a DynamoDB Local holding the local table names
 *   --status                                         only print the version and each segment's checkpoint
 *   --page-size N                                    items per Scan page (default 500): smaller pages
 *                                                    checkpoint more often, for a table short of capacity
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DATA_MODEL_VERSION } from '../functions/model/data-model.js';
import { queues, type TableId, tableList } from '../lib/defs/index.js';
import { localCredentials, localRegion } from './aws-local.js';
import { DataVersionError, openDataDir } from './data-version.js';
import { startDynamoDbLocal } from './dynamodb-local.js';
import { readEndpoints } from './endpoints.js';
import { backupDataDir } from './migrate-local.js';
import { localTableName } from './names.js';
import { dataDir, endpointsFile } from './paths.js';
import { provisionTables } from './provision.js';

const { values } = parseArgs({
  options: {
    outputs: { type: 'string' },
    endpoint: { type: 'string' },
    status: { type: 'boolean', default: false },
    'page-size': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
const pageSize = values['page-size'] === undefined ? undefined : Number(values['page-size']);
if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000)) {
  console.error('--page-size must be a whole number of items from 1 to 1000');
  process.exit(2);
}
if (values.help) {
  console.log(
    readFileSync(new URL(import.meta.url), 'utf8')
      .split('*/')[0]!
      .replace(/^\/\*\*|^ \* ?/gm, '')
      .trim(),
  );
  process.exit(0);
}

/** Points the functions' code at a table set: their env, as the stack or the local runtime sets it. */
function useTables(names: Record<TableId, string>, endpoint?: string): void {
  for (const t of tableList) process.env[t.envVar] = names[t.id];
  if (endpoint) {
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
      AWS_REGION: localRegion,
      AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
    });
  }
}
const localNames = () => Object.fromEntries(tableList.map((t) => [t.id, localTableName(t.id)])) as Record<TableId, string>;

/** `cdk deploy --outputs-file`'s JSON: `{ Tickfeed: { graphTableName: …, maintenanceQueueUrl: …, … } }`. */
const readOutputs = (file: string) => Object.values(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>)[0] ?? {};

function tablesFromOutputs(file: string): Record<TableId, string> {
  const outputs = readOutputs(file);
  return Object.fromEntries(
    tableList.map((t) => {
      const name = outputs[`${t.id}TableName`];
      if (!name) throw new Error(`${file} names no ${t.id}TableName output (run cdk deploy --outputs-file ${file})`);
      return [t.id, name];
    }),
  ) as Record<TableId, string>;
}

let stopLocal: (() => Promise<void>) | undefined;
let markerDir: string | undefined;
if (values.outputs) {
  useTables(tablesFromOutputs(values.outputs));
  // The API serves beside this run: its repair jobs go to the deployed maintenance lane.
  const maintenance = readOutputs(values.outputs).maintenanceQueueUrl;
  if (!maintenance) throw new Error(`${values.outputs} names no maintenanceQueueUrl output`);
  process.env[queues.maintenance.envVar] = maintenance;
} else if (values.endpoint) {
  useTables(localNames(), values.endpoint);
} else if (existsSync(endpointsFile)) {
  const running = readEndpoints(endpointsFile);
  console.log(`npm start is running on ${dataDir}: it migrated its tables at start; checking them`);
  useTables(running.tableNames, running.dynamoEndpoint);
} else {
  let opened;
  try {
    opened = openDataDir(dataDir); // refuses what no migration reads
  } catch (error) {
    if (!(error instanceof DataVersionError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  if (typeof opened === 'object' && !values.status)
    console.log(`${dataDir} holds data model v${opened.old}: copied it to ${backupDataDir(dataDir, opened.old)}`);
  const local = await startDynamoDbLocal({ dataDir: `${dataDir}/dynamodb` });
  stopLocal = () => local.stop();
  useTables(localNames(), local.endpoint);
  await provisionTables(new DynamoDBClient({ region: localRegion, credentials: localCredentials, endpoint: local.endpoint }));
  markerDir = dataDir;
}

// After the env: the functions' clients are made when their modules load.
const { MIGRATION_SEGMENTS, queueRepairs } = await import('../functions/services/migrations/job.js');
const { migrateToCurrent, storedVersion, stepsFrom } = await import('../functions/services/migrations/runner.js');
const { readCheckpoints } = await import('../functions/stores/migration-store.js');
const { writeMarker } = await import('./data-version.js');

// A fault injected by the tests: the process is killed (SIGKILL, no clean-up) after this many pages.
const killAfterPages = Number(process.env.TICKFEED_MIGRATE_KILL_AFTER_PAGES ?? 0);

try {
  const version = await storedVersion();
  if (values.status) {
    console.log(`data model: v${version} (this release: v${DATA_MODEL_VERSION})`);
    for (const step of version < DATA_MODEL_VERSION ? stepsFrom(version) : []) {
      for (const c of await readCheckpoints(step.to)) {
        console.log(
          `  v${step.from}→v${step.to} segment ${c.segment + 1}/${c.totalSegments}: ${c.scanned} items read, ${c.changed} changed, ${c.writes} writes${c.done ? ', done' : ''}`,
        );
      }
    }
  } else {
    let pages = 0;
    let lastLine = 0;
    const started = performance.now();
    const outcome = await migrateToCurrent({
      totalSegments: MIGRATION_SEGMENTS,
      pageSize,
      enqueue: values.outputs ? queueRepairs : undefined,
      onPage: (p) => {
        pages++;
        const now = performance.now();
        if (p.done || now - lastLine > 1000) {
          lastLine = now;
          console.log(
            `v${p.step.from}→v${p.step.to} segment ${p.segment + 1}/${p.totalSegments}: ${p.scanned} items read, ${p.changed} changed, ${p.writes} writes${p.done ? ' (done)' : ''}`,
          );
        }
        if (killAfterPages && pages >= killAfterPages) process.kill(process.pid, 'SIGKILL');
      },
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (outcome.state === 'current') console.log(`data model v${outcome.version}: current, nothing to migrate`);
    else if (outcome.state === 'migrated') {
      const t = outcome.totals;
      console.log(`migrated v${outcome.from} → v${outcome.version}: ${t.scanned} items read, ${t.changed} changed, ${t.writes} writes in ${seconds} s`);
    }
    if (markerDir) writeMarker(markerDir);
  }
} finally {
  await stopLocal?.();
}
