/**
 * The data-model migration runner on a stack of its own: `npm run migrate` killed mid-run resumes
 * from its checkpoints and finishes, then finds nothing to do; beside live traffic a migration
 * never brings back a mute the API lifted nor overwrites one it placed (the deploy's path:
 * migration-on-deploy.test.ts).
 * Data of the older model is seeded item by item as the release of 2026-11-23 stored it (a mute's
 * list entry and mirror, no check entry).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlCheckKey, controlListKey, mirrorKey } from '../../functions/model/user-controls.js';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, own, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { writeItems } from '../support/write-items.js';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const graph = () => stack.tableNames.graph;
const VERSION_KEY = { pk: 'meta#data-model', sk: 'version' };

/** A v2 mute: its list entry and mirror, no check entry (that release had none). */
const v2Mute = (user: string, target: string) => [
  { ...controlListKey('mute', user, target), userId: target },
  { ...mirrorKey('mute', user, target), userId: user },
];

/** Back to "v2": the version item says 2 and no run of the v3 migration is on record. */
async function markV2(): Promise<void> {
  await doc.send(new PutCommand({ TableName: graph(), Item: { ...VERSION_KEY, version: 2 } }));
  const runs = await doc.send(
    new QueryCommand({
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :r)',
      ExpressionAttributeValues: { ':pk': 'meta#data-model', ':r': 'run#' },
    }),
  );
  for (const item of runs.Items ?? []) await doc.send(new DeleteCommand({ TableName: graph(), Key: { pk: item.pk, sk: item.sk } }));
}

const version = async () => String((await doc.send(new GetCommand({ TableName: graph(), Key: VERSION_KEY, ConsistentRead: true }))).Item?.version);
const hasCheck = async (user: string, target: string) =>
  Boolean((await doc.send(new GetCommand({ TableName: graph(), Key: controlCheckKey('mute', user, target), ConsistentRead: true }))).Item);

/** How many of these mutes have their check entry (BatchGets of 100). */
async function checksPresent(mutes: readonly (readonly [string, string])[]): Promise<number> {
  let found = 0;
  for (let i = 0; i < mutes.length; i += 100) {
    const Keys = mutes.slice(i, i + 100).map(([u, t]) => controlCheckKey('mute', u, t));
    let pending: Record<string, unknown>[] | undefined = Keys;
    while (pending?.length) {
      const out = await doc.send(new BatchGetCommand({ RequestItems: { [graph()]: { Keys: pending, ConsistentRead: true } } }));
      found += out.Responses?.[graph()]?.length ?? 0;
      pending = out.UnprocessedKeys?.[graph()]?.Keys as Record<string, unknown>[] | undefined;
    }
  }
  return found;
}

function migrateCli(env: Record<string, string> = {}, args = ['--endpoint', stack.dynamoEndpoint]) {
  // node itself (tsx as its loader), so a kill reaches the process that migrates, not a wrapper.
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'local/migrate-cli.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, signal: run.signal, out: `${run.stdout}${run.stderr}` };
}

beforeAll(() => startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1 }), 120_000);
afterAll(() => stopOwnStack());

describe('npm run migrate', () => {
  it('resumes after a kill mid-run from its checkpoints, then finds the data current and writes nothing', async () => {
    // 1,000 mutes: 2,000 items, in pages of 100 over 4 Scan segments run side by side (about 5 pages each).
    const users = Array.from({ length: 1000 }, (_, i) => [uid(`m${i}`), uid('t')] as const);
    await writeItems(
      doc,
      graph(),
      users.flatMap(([u, t]) => v2Mute(u, t)),
    );
    await markV2();

    const pageSize = 100;
    const killAfterPages = 2;
    const killed = migrateCli({ TICKFEED_MIGRATE_KILL_AFTER_PAGES: String(killAfterPages) }, [
      '--endpoint',
      stack.dynamoEndpoint,
      '--page-size',
      String(pageSize),
    ]);
    expect(killed.signal, killed.out).toBe('SIGKILL');
    expect(await version()).toBe('2');
    const doneBefore = await checksPresent(users);
    expect(doneBefore).toBeGreaterThan(0); // the pages checkpointed before the kill were applied
    // Whatever the timing: the killed run applied its checkpointed pages plus at most one page in
    // flight per segment, so at most (kill + segments) pages' items, far fewer than all.
    const { MIGRATION_SEGMENTS } = await import('../../functions/services/migrations/job.js');
    expect(doneBefore).toBeLessThanOrEqual((killAfterPages + MIGRATION_SEGMENTS) * pageSize);
    expect(doneBefore).toBeLessThan(users.length);

    const resumed = migrateCli();
    expect(resumed.status, resumed.out).toBe(0);
    const summary = /migrated v2 → v3: (\d+) items read/.exec(resumed.out);
    expect(summary, resumed.out).not.toBeNull();
    // It read what was left, not the whole table again: fewer items than the 2,000 seeded.
    expect(Number(summary![1])).toBeLessThan(users.length * 2);
    expect(await version()).toBe('3');
    expect(await checksPresent(users)).toBe(users.length);

    const again = migrateCli();
    expect(again.status, again.out).toBe(0);
    expect(again.out).toContain('data model v3: current, nothing to migrate');
  });
});

describe('a migration beside live traffic', () => {
  it('never brings back a mute the API lifted between the Scan and the write, nor overwrites one it placed', async () => {
    const { planControlCheck } = await import('../../functions/services/migrations/v3/graph-items.js');
    const { applyWrites } = await import('../../functions/stores/migration-store.js');
    const [alice, bob, carol] = [uid('alice'), uid('bob'), uid('carol')];
    // The API mutes bob and carol (v3: list entry, mirror and check entry, with its cleanup flag).
    expect((await api('PUT', `/mutes/${bob}`, { on: own, as: alice })).status).toBe(204);
    expect((await api('PUT', `/mutes/${carol}`, { on: own, as: alice })).status).toBe(204);
    const read = (target: string) => doc.send(new GetCommand({ TableName: graph(), Key: controlListKey('mute', alice, target), ConsistentRead: true }));
    // The migration's Scan reads both list entries …
    const scanned = [(await read(bob)).Item!, (await read(carol)).Item!];
    const checkBefore = (await doc.send(new GetCommand({ TableName: graph(), Key: controlCheckKey('mute', alice, carol), ConsistentRead: true }))).Item;
    // … the API lifts the mute of bob before the migration writes …
    expect((await api('DELETE', `/mutes/${bob}`, { on: own, as: alice })).status).toBe(204);
    // … and the migration applies what it planned from the Scan.
    await applyWrites(
      'graph',
      scanned.flatMap((item) => planControlCheck(item)),
    );
    expect(await hasCheck(alice, bob)).toBe(false); // no mute that no list shows and nothing lifts
    const checkAfter = (await doc.send(new GetCommand({ TableName: graph(), Key: controlCheckKey('mute', alice, carol), ConsistentRead: true }))).Item;
    expect(checkAfter).toEqual(checkBefore); // the API's own check entry, untouched
    expect((await api('GET', '/mutes', { on: own, as: alice })).body.items).toEqual([{ userId: carol }]);
  });
});

describe('npm run migrate against a deployed stack (--outputs)', () => {
  it("reads the tables and the maintenance queue from cdk deploy's outputs file, migrates, and --status tells the version", async () => {
    const [u, t] = [uid('m'), uid('t')];
    await writeItems(doc, graph(), v2Mute(u, t));
    await markV2();
    // What `cdk deploy --outputs-file` writes (lib/tickfeed-stack.ts CfnOutputs), naming this stack's
    // resources; the SDK reaches them as it would AWS, through the standard endpoint settings.
    const outputs = join(mkdtempSync(join(tmpdir(), 'tickfeed-outputs-')), 'cdk-outputs.json');
    writeFileSync(
      outputs,
      JSON.stringify({
        Tickfeed: {
          ...Object.fromEntries(Object.entries(stack.tableNames).map(([id, name]) => [`${id}TableName`, name])),
          ...Object.fromEntries(Object.entries(stack.queueUrls).map(([id, url]) => [`${id}QueueUrl`, url])),
        },
      }),
    );
    const aws = {
      AWS_ENDPOINT_URL_DYNAMODB: stack.dynamoEndpoint,
      AWS_ENDPOINT_URL_SQS: stack.sqsEndpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
    const run = migrateCli(aws, ['--outputs', outputs]);
    expect(run.status, run.out).toBe(0);
    expect(run.out).toMatch(/migrated v2 → v3: \d+ items read/);
    expect(await hasCheck(u, t)).toBe(true);
    const status = migrateCli(aws, ['--outputs', outputs, '--status']);
    expect(status.out).toContain('data model: v3 (this release: v3)');
  });
});
