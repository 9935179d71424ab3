/**
 * Which data model a local data directory (`.tickfeed/` by default) was written with. The model
 * lives with the data (the tables' version item, model/data-model.ts); the directory also carries
 * a `DATA_VERSION` marker, read before DynamoDB Local opens it: data of an older model that a
 * migration brings forward is copied aside and migrated (local/migrate-local.ts); data no
 * migration reads (v1, or a newer model) stops the start with one line that says what to do.
 *
 * v1 wrote no marker: a directory holding data but no marker is v1. The JWT key pair
 * (`jwt-keys.json`) is not data of the model: `npm start` and `npm run token` create it before the
 * stack opens the directory, and it stays valid across versions.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';

import { DATA_MODEL_VERSION, OLDEST_MIGRATABLE_VERSION } from '../functions/model/data-model.js';

/** The data model this code reads and writes (model/data-model.ts says what each one changed). */
export const DATA_VERSION = String(DATA_MODEL_VERSION);
/** The marker's file name inside the data directory. */
export const DATA_VERSION_FILE = 'DATA_VERSION';

/** Entries that say nothing about the data model: the marker (and its temp file) and the JWT key pair. */
const NOT_DATA = new Set([DATA_VERSION_FILE, `${DATA_VERSION_FILE}.tmp`, 'jwt-keys.json']);

export type DataDirState = 'fresh' | 'current' | { readonly old: string };

/**
 * Reads `dir` (never writes): 'fresh' when it does not exist or holds no data, 'current' when its
 * marker names this version, `{ old }` with the version found otherwise ('1' for data without a
 * marker).
 */
export function dataDirState(dir: string): DataDirState {
  const marker = join(dir, DATA_VERSION_FILE);
  if (existsSync(marker)) {
    const version = readFileSync(marker, 'utf8').trim();
    return version === DATA_VERSION ? 'current' : { old: version };
  }
  return holdsData(dir) ? { old: '1' } : 'fresh';
}

/** Anything but the key pair, dot-files and empty folders counts as data (of an unknown model). */
function holdsData(path: string, top = true): boolean {
  if (!existsSync(path)) return false;
  if (!statSync(path).isDirectory()) return true;
  return readdirSync(path).some((name) => !name.startsWith('.') && !(top && NOT_DATA.has(name)) && holdsData(join(path, name), false));
}

/** Whether a migration brings data of model `found` to this version. */
export const isMigratable = (found: string): boolean => /^\d+$/.test(found) && Number(found) >= OLDEST_MIGRATABLE_VERSION && Number(found) < DATA_MODEL_VERSION;

/** The data directory holds data this version cannot read. `message` is the one line to print. */
export class DataVersionError extends Error {
  constructor(
    readonly dir: string,
    readonly found: string,
  ) {
    const shown = shownPath(dir);
    super(
      `tickfeed: ${shown}/ holds data from ${describeModel(found)}, which no migration of this version reads. ` +
        `Reset it with: rm -rf ${shellQuote(shown)}   (or run npm start -- --in-memory)`,
    );
    this.name = 'DataVersionError';
  }
}

/**
 * Opens `dir` for this version before anything reads it: a fresh directory gets the marker (and is
 * created if missing); a current one is left as is; one of a model a migration reads is returned
 * as `{ old }` (the caller migrates it, then writes the marker); any other throws DataVersionError.
 */
export function openDataDir(dir: string): 'fresh' | 'current' | { readonly old: string } {
  const state = dataDirState(dir);
  if (typeof state === 'object' && !isMigratable(state.old)) throw new DataVersionError(dir, state.old);
  if (state === 'fresh') writeMarker(dir);
  return state;
}

/** Records that `dir` holds this version's model (after a migration brought it here). */
export function writeMarker(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, DATA_VERSION_FILE);
  // write-then-rename: a crash leaves no marker (still fresh) or a whole one
  writeFileSync(`${file}.tmp`, `${DATA_VERSION}\n`);
  renameSync(`${file}.tmp`, file);
}

function describeModel(found: string): string {
  if (!/^\d+$/.test(found)) return `an unknown data model (${DATA_VERSION_FILE} says ${JSON.stringify(found)})`;
  return `${Number(found) < Number(DATA_VERSION) ? 'an older' : 'a newer'} data model (v${found})`;
}

/** `dir` relative to the working directory when inside it (`.tickfeed`), else absolute. */
function shownPath(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : dir;
}

const shellQuote = (s: string) => (/^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
