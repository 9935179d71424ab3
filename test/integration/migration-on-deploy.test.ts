/**
 * A deploy of a release with a newer data model, as AWS runs it: the deploy's trigger invokes
 * migrationStart (here through the local runtime's loader: from its bundle in the bundles pass),
 * which queues the migration on the maintenance lane, whose worker runs it to the end; the next
 * deploy finds the data current. Data of the older model is seeded as the release of 2026-11-23
 * stored it (a mute's list entry and mirror, no check entry).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlCheckKey, controlListKey, mirrorKey } from '../../functions/model/user-controls.js';
import { loadHandler } from '../../local/handlers.js';
import { uid } from '../support/ids.js';
import { doc, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';
import { writeItems } from '../support/write-items.js';

const graph = () => stack.tableNames.graph;
const VERSION_KEY = { pk: 'meta#data-model', sk: 'version' };
const version = async () => String((await doc.send(new GetCommand({ TableName: graph(), Key: VERSION_KEY, ConsistentRead: true }))).Item?.version);

beforeAll(() => startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1 }), 120_000);
afterAll(() => stopOwnStack());

describe('a deploy of a new data model', () => {
  it("queues the migration on the maintenance lane (the trigger's function), whose worker runs it to the end", async () => {
    const [u, t] = [uid('m'), uid('t')];
    await writeItems(doc, graph(), [
      { ...controlListKey('mute', u, t), userId: t },
      { ...mirrorKey('mute', u, t), userId: u },
    ]);
    await doc.send(new PutCommand({ TableName: graph(), Item: { ...VERSION_KEY, version: 2 } })); // the tables of the older release
    const handler = await loadHandler('migrationStart');
    const started = await handler({});
    expect(started).toEqual({ version: 2, queued: 4 });
    await eventually(async () => (await version()) === '3', { what: 'the maintenance worker to finish the migration', timeoutMs: 60_000 });
    const check = await doc.send(new GetCommand({ TableName: graph(), Key: controlCheckKey('mute', u, t), ConsistentRead: true }));
    expect(check.Item).toBeDefined();
    expect(await handler({})).toEqual({ version: 3, queued: 0 }); // the next deploy finds it current
  });
});
