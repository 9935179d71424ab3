/**
 * A local data directory of an older data model, brought forward at `npm start` (and by
 * `npm run migrate`): the directory is copied aside first (`<dir>.v<old>-backup`, kept), then the
 * tables are migrated in-process by the same runner the deployed stack's maintenance lane runs
 * (functions/services/migrations/), before the API or any poller starts; then the marker moves.
 * Jobs saved in the queue snapshot are restored as usual and run after the migration.
 */
import { cpSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DATA_MODEL_VERSION, dataModelKey, parseDataModelVersion } from '../functions/model/data-model.js';
import { writeMarker } from './data-version.js';

/** Copies `dir` to a sibling that does not exist yet; returns its path. */
export function backupDataDir(dir: string, oldVersion: string): string {
  const base = join(dirname(dir), `${basename(dir)}.v${oldVersion}-backup`);
  let target = base;
  for (let n = 2; existsSync(target); n++) target = `${base}-${n}`;
  cpSync(dir, target, { recursive: true });
  return target;
}

export interface LocalMigration {
  readonly from: number;
  readonly version: number;
  readonly scanned: number;
  readonly changed: number;
  readonly writes: number;
  readonly seconds: number;
}

/**
 * Brings the running local tables to this version's model and records it: the version item, and
 * the directory's marker when there is one. Undefined when they were current already. Whether
 * they are is read with the stack's own client (`dynamo`); only a migration loads the runner,
 * whose clients the functions' modules make once per process from the env (which must be set).
 */
export async function migrateLocalTables(opts: {
  dynamo: DynamoDBClient;
  graphTable: string;
  dataDir?: string;
  fresh: boolean;
  totalSegments?: number;
  onPage?: (line: string) => void;
}): Promise<LocalMigration | undefined> {
  const started = performance.now();
  const doc = DynamoDBDocumentClient.from(opts.dynamo, { unmarshallOptions: { wrapNumbers: true } });
  const stored = parseDataModelVersion((await doc.send(new GetCommand({ TableName: opts.graphTable, Key: dataModelKey(), ConsistentRead: true }))).Item);
  let outcome;
  if (opts.fresh || stored === DATA_MODEL_VERSION) {
    // Nothing stored yet, or current: record it (a fresh directory has no version item yet).
    if (stored === undefined)
      await doc.send(
        new PutCommand({
          TableName: opts.graphTable,
          Item: { ...dataModelKey(), version: DATA_MODEL_VERSION },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
  } else {
    const { migrateToCurrent } = await import('../functions/services/migrations/runner.js');
    outcome = await migrateToCurrent({
      totalSegments: opts.totalSegments ?? 4,
      onPage: opts.onPage
        ? (p) =>
            opts.onPage!(
              `v${p.step.from}→v${p.step.to} segment ${p.segment + 1}/${p.totalSegments}: ${p.scanned} items read, ${p.changed} changed, ${p.writes} writes${p.done ? ' (done)' : ''}`,
            )
        : undefined,
    });
  }
  if (opts.dataDir) writeMarker(opts.dataDir);
  if (outcome?.state !== 'migrated') return undefined;
  return { from: outcome.from, version: outcome.version, ...outcome.totals, seconds: (performance.now() - started) / 1000 };
}
