/**
 * A deploy of a release with a newer data model, as AWS runs it: the deploy's trigger invokes
 * migrationStart (here through the local runtime's loader: from its bundle in the bundles pass),
 * which queues the migration on the maintenance lane, whose worker runs it to the end; the next
 * deploy finds the data current. Data of the older model is seeded as the release of 2026-11-23
 * stored it (a mute's list entry and mirror, no check entry).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlCheckKey, controlListKey, mirrorKey } from '../../functions/model/user-controls.js';
import { loadHandler } from '../../local/handlers.js';
import { uid } from '../support/ids.js';
import { doc, own, settled, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { api } from '../support/api.js';
import { profileKey } from '../../functions/model/profile.js';
import { eventually } from '../support/wait.js';
import { writeItems } from '../support/write-items.js';

const graph = () => stack.tableNames.graph;
const VERSION_KEY = { pk: 'meta#data-model', sk: 'version' };
const version = async () => String((await doc.send(new GetCommand({ TableName: graph(), Key: VERSION_KEY, ConsistentRead: true }))).Item?.version);

/** The tables as the older release left them: version 2, no run of the migration on record. */
async function markV2(): Promise<void> {
  await doc.send(new PutCommand({ TableName: graph(), Item: { ...VERSION_KEY, version: 2 } }));
  const runs = await doc.send(
    new QueryCommand({
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :r)',
      ExpressionAttributeValues: { ':pk': VERSION_KEY.pk, ':r': 'run#' },
    }),
  );
  for (const item of runs.Items ?? []) await doc.send(new DeleteCommand({ TableName: graph(), Key: { pk: item.pk, sk: item.sk } }));
}

beforeAll(() => startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1 }), 120_000);
afterAll(() => stopOwnStack());

describe('a deploy of a new data model', () => {
  it("queues the migration on the maintenance lane (the trigger's function), whose worker runs it to the end", async () => {
    const [u, t] = [uid('m'), uid('t')];
    await writeItems(doc, graph(), [
      { ...controlListKey('mute', u, t), userId: t },
      { ...mirrorKey('mute', u, t), userId: u },
    ]);
    await markV2();
    const handler = await loadHandler('migrationStart');
    const started = await handler({});
    expect(started).toEqual({ version: 2, queued: 4 });
    await eventually(async () => (await version()) === '3', { what: 'the maintenance worker to finish the migration', timeoutMs: 60_000 });
    const check = await doc.send(new GetCommand({ TableName: graph(), Key: controlCheckKey('mute', u, t), ConsistentRead: true }));
    expect(check.Item).toBeDefined();
    expect(await handler({})).toEqual({ version: 3, queued: 0 }); // the next deploy finds it current
  });
});

describe('a follow made while the migration runs', () => {
  it("of an author pulled before the upgrade still shows the author's posts once the migration ran (its repair job)", async () => {
    const [star, reader] = [uid('star'), uid('reader')];
    // As the release of 2026-11-23 left a pulled author: the flag on the profile only.
    // Well past the pull threshold (its base count): it stays pulled whatever one follow adds.
    await doc.send(new PutCommand({ TableName: graph(), Item: { ...profileKey(star), pulled: true, followers: 200_000, following: 0 } }));
    await markV2();
    // Before the migration reaches the author: the follow reads "not pulled" from its shard.
    expect((await api('PUT', `/following/${star}`, { on: own, as: reader })).status).toBe(204);
    await settled('the follow');
    const post = await api('POST', '/activities', { on: own, as: star, json: { verb: 'post', content: 'for my followers' } });
    expect(post.status).toBe(201);
    await settled('the post');
    const inFeed = async () => (await api('GET', '/feed', { on: own, as: reader })).body.items.some((i: { id: string }) => i.id === post.body.id);
    expect(await inFeed()).toBe(false); // a push follow of a pulled author: no copy, and no merge
    const handler = await loadHandler('migrationStart');
    expect(await handler({})).toMatchObject({ version: 2 });
    await eventually(async () => (await version()) === '3', { what: 'the migration to finish', timeoutMs: 60_000 });
    await eventually(inFeed, {
      what: "the pulled author's post in the reader's feed",
      timeoutMs: 30_000,
    });
  });
});
