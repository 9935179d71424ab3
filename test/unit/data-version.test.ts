/**
 * The data-version marker of the local data directory (local/data-version.ts): a fresh directory
 * is stamped, v1 data (no marker) and other versions are detected and refused, never opened.
 * Temp directories only; no local stack.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DATA_VERSION, DATA_VERSION_FILE, DataVersionError, dataDirState, openDataDir } from '../../local/data-version.js';

// startLocalStack must refuse before DynamoDB Local starts: count the attempts instead of starting it.
const dynamoStarts = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../local/dynamodb-local.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../local/dynamodb-local.js')>()),
  startDynamoDbLocal: async () => {
    dynamoStarts.count++;
    throw new Error('test: DynamoDB Local not started in unit tests');
  },
}));

const root = mkdtempSync(join(tmpdir(), 'tickfeed-data-version-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A new directory under the temp root holding `files` (path → content). */
function dirWith(files: Record<string, string> = {}): string {
  const dir = join(root, `d${n++}`);
  mkdirSync(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
const marker = (dir: string) => readFileSync(join(dir, DATA_VERSION_FILE), 'utf8');
/** What DynamoDB Local (-sharedDb -dbPath …/dynamodb) and the pollers leave in a v1 directory. */
const v1Files = {
  'dynamodb/shared-local-instance.db': 'SQLite format 3\0…',
  'stream-checkpoints.json': '{}',
  'jwt-keys.json': '{}',
};

describe('local data directory version', () => {
  it('is version 3', () => expect(DATA_VERSION).toBe('3'));

  it('stamps a fresh (empty) directory with the marker', () => {
    const dir = dirWith();
    expect(dataDirState(dir)).toBe('fresh');
    expect(openDataDir(dir)).toBe('fresh');
    expect(marker(dir)).toBe('3\n');
    expect(readdirSync(dir)).toEqual([DATA_VERSION_FILE]);
    expect(dataDirState(dir)).toBe('current');
    expect(openDataDir(dir)).toBe('current');
  });

  it('creates a missing directory and stamps it', () => {
    const dir = join(root, 'not-there-yet', '.tickfeed');
    expect(dataDirState(dir)).toBe('fresh');
    expect(openDataDir(dir)).toBe('fresh');
    expect(marker(dir)).toBe('3\n');
  });

  it('counts neither the JWT key pair (written by npm start first) nor empty folders as data', () => {
    const dir = dirWith({ 'jwt-keys.json': '{}', '.DS_Store': '' });
    mkdirSync(join(dir, 'dynamodb'));
    expect(openDataDir(dir)).toBe('fresh');
    expect(marker(dir)).toBe('3\n');
  });

  it('detects DynamoDB Local files without a marker as v1 and refuses them, touching nothing', () => {
    const dir = dirWith(v1Files);
    const before = readdirSync(dir, { recursive: true }).sort();
    expect(dataDirState(dir)).toEqual({ old: '1' });
    expect(() => openDataDir(dir)).toThrow(DataVersionError);
    expect(existsSync(join(dir, DATA_VERSION_FILE))).toBe(false);
    expect(readdirSync(dir, { recursive: true }).sort()).toEqual(before);
  });

  it('detects v1 from any of its files alone (the DynamoDB database, checkpoints, a queue snapshot)', () => {
    for (const file of ['dynamodb/shared-local-instance.db', 'stream-checkpoints.json', 'queued-messages.json']) {
      expect(dataDirState(dirWith({ [file]: 'x' })), file).toEqual({ old: '1' });
    }
  });

  it('opens a directory whose marker says 3 as current, data and all', () => {
    const dir = dirWith({ ...v1Files, [DATA_VERSION_FILE]: '3\n' });
    expect(dataDirState(dir)).toBe('current');
    expect(openDataDir(dir)).toBe('current');
    expect(marker(dir)).toBe('3\n');
  });

  it('hands a directory whose marker says 2 back to be migrated, touching nothing', () => {
    const v2 = dirWith({ ...v1Files, [DATA_VERSION_FILE]: '2\n' });
    const before = readdirSync(v2, { recursive: true }).sort();
    expect(openDataDir(v2)).toEqual({ old: '2' });
    expect(marker(v2)).toBe('2\n');
    expect(readdirSync(v2, { recursive: true }).sort()).toEqual(before);
  });

  it('refuses a directory whose marker says 1 (no migration reads it), a newer model, or junk', () => {
    const v1 = dirWith({ ...v1Files, [DATA_VERSION_FILE]: '1' });
    expect(dataDirState(v1)).toEqual({ old: '1' });
    expect(() => openDataDir(v1)).toThrow(/older data model \(v1\)/);
    expect(marker(v1)).toBe('1');

    const v4 = dirWith({ [DATA_VERSION_FILE]: '4\n' });
    expect(dataDirState(v4)).toEqual({ old: '4' });
    expect(() => openDataDir(v4)).toThrow(/newer data model \(v4\)/);

    const junk = dirWith({ [DATA_VERSION_FILE]: 'two' });
    expect(() => openDataDir(junk)).toThrow(/unknown data model \(DATA_VERSION says "two"\)/);
  });

  it('says in one line what holds the data and how to reset it', () => {
    const error = new DataVersionError(join(process.cwd(), '.tickfeed'), '1');
    expect(error.name).toBe('DataVersionError');
    expect(error.message).toBe(
      'tickfeed: .tickfeed/ holds data from an older data model (v1), which no migration of this version reads. ' +
        'Reset it with: rm -rf .tickfeed   (or run npm start -- --in-memory)',
    );
    const elsewhere = new DataVersionError('/var/tmp/my data', '1').message;
    expect(elsewhere).toContain('/var/tmp/my data/ holds data from an older data model (v1)');
    expect(elsewhere).toContain("rm -rf '/var/tmp/my data'");
    expect(elsewhere).not.toContain('\n');
  });

  it('startLocalStack refuses v1 data before starting DynamoDB Local, and stamps a fresh directory', async () => {
    const { startLocalStack } = await import('../../local/stack.js');
    const keys = { privateJwk: {}, publicJwk: {} };
    dynamoStarts.count = 0;

    const old = dirWith(v1Files);
    await expect(startLocalStack({ port: 0, keys, dataDir: old })).rejects.toThrow(DataVersionError);
    expect(dynamoStarts.count).toBe(0);
    expect(existsSync(join(old, DATA_VERSION_FILE))).toBe(false);

    const fresh = dirWith();
    await expect(startLocalStack({ port: 0, keys, dataDir: fresh })).rejects.toThrow(/not started in unit tests/);
    expect(dynamoStarts.count).toBe(1);
    expect(marker(fresh)).toBe('3\n');
  });
});
