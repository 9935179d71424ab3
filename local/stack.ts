/**
 * The whole local stack in one call: DynamoDB Local, the SQS server, tables and queues from the
 * shared definitions, env vars for the handlers, the HTTP API (with the web console under /console),
 * and one poller per event source.
 * Used by `npm start` (local/main.ts), the tests' global setup and the benchmarks.
 */
import { withoutSdkLogging } from '../functions/platform/quiet-client.js';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import {
  configKeys,
  eventSources,
  type QueueId,
  queues,
  readConfig,
  REALTIME_ENDPOINT_ENV,
  REALTIME_URL_ENV,
  type TableId,
  tableList,
} from '../lib/defs/index.js';
import { localCredentials, localRegion } from './aws-local.js';
import { type CheckpointStore, fileCheckpoints, memoryCheckpoints } from './checkpoints.js';
import { consoleDist } from './console-build.js';
import { createConsoleSite } from './console-site.js';
import { openDataDir } from './data-version.js';
import { backupDataDir, migrateLocalTables } from './migrate-local.js';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.js';
import { type HttpApi, startHttpApi } from './http-api.js';
import { type RealtimeApi, startRealtimeApi } from './realtime-api.js';
import { createVerifier, type LocalKeys } from './jwt.js';
import { localTableName } from './names.js';
import type { Poller } from './poller.js';
import { provisionQueues, provisionTables, streamArnOf } from './provision.js';
import { restoreQueues, saveQueues } from './queue-snapshot.js';
import { type SqsLocal, startSqsServer } from './sqs-server.js';
import { startSqsPoller } from './sqs-poller.js';
import { startStreamPoller } from './stream-poller.js';

/** Poll loops per SQS event source unless `sqsConcurrency` says otherwise. */
export const DEFAULT_SQS_CONCURRENCY = 4;

export interface LocalStackOptions {
  /**
   * Persist DynamoDB data and stream checkpoints here; undefined = in memory. A directory holding
   * data of an older model a migration reads is copied aside and migrated before the API starts;
   * any other model is refused (DataVersionError) before anything starts.
   */
  readonly dataDir?: string;
  /** Where the one-line notices go: a migrated directory, a stream position past retention (default console.log / console.error). */
  readonly log?: (line: string) => void;
  /** HTTP API port; 0 = any free port. */
  readonly port: number;
  readonly keys: LocalKeys;
  /** Run the event-source pollers (default true). */
  readonly pollers?: boolean;
  /** See SqsPollerOptions.retryDelaySeconds. */
  readonly sqsRetryDelaySeconds?: number;
  /** Poll loops per SQS event source (default DEFAULT_SQS_CONCURRENCY; never more than the source's maximum concurrency). */
  readonly sqsConcurrency?: number;
  /** Extra env for the handlers (config keys), on top of process.env. */
  readonly env?: Record<string, string>;
}

export interface LocalStack {
  readonly apiUrl: string;
  /** The realtime WebSocket API (local/realtime-api.ts): its URL and send counts. */
  readonly realtime: Pick<RealtimeApi, 'url' | 'managementEndpoint' | 'stats' | 'connectionCount'>;
  readonly dynamoEndpoint: string;
  readonly sqsEndpoint: string;
  readonly dynamoPid: number;
  readonly tableNames: Record<TableId, string>;
  readonly queueUrls: Record<QueueId, string>;
  /** The env vars the handlers see (also applied to this process). */
  readonly env: Record<string, string>;
  /** Holds an SQS event source's poller still until the returned function is called (tests; see Poller.pause). */
  pauseSource(id: string): Promise<() => void>;
  stop(): Promise<void>;
}

export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  // Before DynamoDB Local opens the directory: never start on data this version cannot read, and
  // copy data of an older model aside before migrating it.
  const opened = opts.dataDir ? openDataDir(opts.dataDir) : 'fresh';
  const backup = opts.dataDir && typeof opened === 'object' ? backupDataDir(opts.dataDir, opened.old) : undefined;
  const started: { stop(): Promise<void> }[] = [];
  const stopAll = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
  };
  try {
    // Both on ports the OS picks as they bind (a port chosen first could be taken before the bind).
    const dynamoLocal: DynamoDbLocal = await startDynamoDbLocal({
      dataDir: opts.dataDir ? join(opts.dataDir, 'dynamodb') : undefined,
    });
    started.push(dynamoLocal);
    const sqsLocal: SqsLocal = await startSqsServer();
    started.push(sqsLocal);

    const clientConfig = { region: localRegion, credentials: localCredentials };
    // The runtime's own clients skip the SDK's logger middleware, as the functions' do (platform/quiet-client.ts).
    const dynamo = withoutSdkLogging(new DynamoDBClient({ ...clientConfig, endpoint: dynamoLocal.endpoint }));
    const streams = withoutSdkLogging(new DynamoDBStreamsClient({ ...clientConfig, endpoint: dynamoLocal.endpoint }));
    const sqs = withoutSdkLogging(new SQSClient({ ...clientConfig, endpoint: sqsLocal.endpoint }));
    started.push({ stop: async () => [dynamo, streams, sqs].forEach((c) => c.destroy()) });
    // Stopped after the pollers (stops run in reverse): whatever is still queued is kept.
    started.push({
      stop: async () => {
        if (opts.dataDir) await saveQueues(sqs, urlsOf(queueRefs), join(opts.dataDir, 'queued-messages.json'));
      },
    });
    let queueRefs: Awaited<ReturnType<typeof provisionQueues>>;

    await provisionTables(dynamo);
    queueRefs = await provisionQueues(sqs);
    const snapshotFile = opts.dataDir ? join(opts.dataDir, 'queued-messages.json') : undefined;
    if (snapshotFile) await restoreQueues(sqs, urlsOf(queueRefs), snapshotFile);

    const tableNames = Object.fromEntries(tableList.map((t) => [t.id, localTableName(t.id)])) as Record<TableId, string>;
    const queueUrls = urlsOf(queueRefs);
    const verify = await createVerifier(opts.keys);
    // Before the env: the senders get its management endpoint, GET /realtime its URL.
    const realtime = await startRealtimeApi({ port: 0, verify });
    started.push(realtime);
    const realtimeEnv = { [REALTIME_ENDPOINT_ENV]: realtime.managementEndpoint, [REALTIME_URL_ENV]: realtime.url };
    const env = handlerEnv(dynamoLocal.endpoint, sqsLocal.endpoint, tableNames, queueUrls, { ...realtimeEnv, ...opts.env });
    Object.assign(process.env, env); // before any handler module loads: they read env once

    // Before the API or any poller: the tables hold this version's model (a migration of older data).
    const migrated = await migrateLocalTables({ dynamo, graphTable: tableNames.graph, dataDir: opts.dataDir, fresh: opened === 'fresh' });
    if (migrated && backup) {
      (opts.log ?? console.log)(
        `tickfeed: ${opts.dataDir} held data model v${migrated.from}: copied it to ${backup}, migrated it to v${migrated.version} ` +
          `(${migrated.scanned} items read, ${migrated.changed} changed, ${migrated.writes} writes, ${migrated.seconds.toFixed(1)} s)`,
      );
    }

    // The console's assets are read per request: a build finished after the start is served too.
    const site = createConsoleSite({ assetsDir: consoleDist, keys: opts.keys, rollups: readConfig('ROLLUPS', env), realtimeUrl: realtime.url });
    const api: HttpApi = await startHttpApi({ port: opts.port, verify, site });
    started.push(api);

    const pollers = new Map<string, Poller>();
    if (opts.pollers !== false) {
      const checkpoints: CheckpointStore = opts.dataDir ? fileCheckpoints(join(opts.dataDir, 'stream-checkpoints.json')) : memoryCheckpoints();
      for (const source of eventSources) {
        const poller = await startPoller(source);
        pollers.set(source.id, poller);
        started.push(poller);
      }
      async function startPoller(source: (typeof eventSources)[number]): Promise<Poller> {
        if (source.kind === 'sqs') {
          return startSqsPoller({
            source,
            sqs,
            queueUrl: queueRefs[source.queue].url,
            queueArn: queueRefs[source.queue].arn,
            // Lambda's MaximumConcurrency of the mapping bounds the parallel invocations here too.
            concurrency: Math.min(opts.sqsConcurrency ?? DEFAULT_SQS_CONCURRENCY, source.maxConcurrency?.default ?? Number.POSITIVE_INFINITY),
            retryDelaySeconds: opts.sqsRetryDelaySeconds,
          });
        }
        return startStreamPoller({
          source,
          streams,
          sqs,
          streamArn: await streamArnOf(dynamo, tableNames[source.table]),
          onFailureQueueUrl: queueRefs[source.onFailure].url,
          checkpoints,
          log: opts.log,
        });
      }
    }

    return {
      apiUrl: api.url,
      realtime,
      dynamoEndpoint: dynamoLocal.endpoint,
      sqsEndpoint: sqsLocal.endpoint,
      dynamoPid: dynamoLocal.pid,
      tableNames,
      queueUrls,
      env,
      pauseSource(id) {
        const poller = pollers.get(id);
        if (!poller?.pause) throw new Error(`no pausable poller "${id}" (pollers: ${[...pollers.keys()].join(', ') || 'none'})`);
        return poller.pause();
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

const urlsOf = (refs: Record<QueueId, { url: string }>) => Object.fromEntries(Object.entries(refs).map(([id, q]) => [id, q.url])) as Record<QueueId, string>;

/** The env a handler gets: what the CDK stack sets in AWS, pointed at the local servers. */
function handlerEnv(
  dynamoEndpoint: string,
  sqsEndpoint: string,
  tableNames: Record<TableId, string>,
  queueUrls: Record<QueueId, string>,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {
    AWS_REGION: localRegion,
    AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
    AWS_ENDPOINT_URL_SQS: sqsEndpoint,
    POWERTOOLS_SERVICE_NAME: 'tickfeed',
    // EMF lines are CloudWatch's input; locally they would only flood the console.
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  for (const t of tableList) env[t.envVar] = tableNames[t.id];
  for (const q of Object.values(queues)) env[q.envVar] = queueUrls[q.id];
  for (const def of Object.values(configKeys)) env[def.envVar] = extra[def.envVar] ?? process.env[def.envVar] ?? def.default;
  return { ...env, ...extra };
}
