/**
 * A local data directory of an older data model, brought forward at `npm start` (and by
 * `npm run migrate`): the directory is copied aside first (`<dir>.v<old>-backup`, kept), then the
 * tables are migrated in-process by the same runner the deployed stack's maintenance lane runs
 * (functions/services/migrations/), before the API or any poller starts; then the marker moves.
 * Jobs saved in the queue snapshot are restored as usual and run after the migration.
 */
import { cpSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DATA_VERSION, writeMarker } from './data-version.js';

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
 * Brings the running local tables to this version's model (the handlers' env must be set: the
 * runner's clients are made on import) and records it: the version item, and the directory's
 * marker when there is one. Undefined when they were current already.
 */
export async function migrateLocalTables(opts: {
  dataDir?: string;
  fresh: boolean;
  totalSegments?: number;
  onPage?: (line: string) => void;
}): Promise<LocalMigration | undefined> {
  const { migrateToCurrent } = await import('../functions/services/migrations/runner.js');
  const { writeDataModelVersion } = await import('../functions/stores/migration-store.js');
  const started = performance.now();
  let outcome;
  if (opts.fresh) {
    await writeDataModelVersion(Number(DATA_VERSION)); // nothing stored yet: nothing to bring forward
  } else {
    outcome = await migrateToCurrent({
      totalSegments: opts.totalSegments ?? 4,
      onPage: opts.onPage
        ? (p) => opts.onPage!(`v${p.step.from}→v${p.step.to} segment ${p.segment + 1}/${p.totalSegments}: ${p.scanned} items read, ${p.changed} changed, ${p.writes} writes${p.done ? ' (done)' : ''}`)
        : undefined,
    });
  }
  if (opts.dataDir) writeMarker(opts.dataDir);
  if (outcome?.state !== 'migrated') return undefined;
  return { from: outcome.from, version: outcome.version, ...outcome.totals, seconds: (performance.now() - started) / 1000 };
}
