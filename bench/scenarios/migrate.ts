/**
 * The v2 → v3 data-model migration over a graph table seeded as the release of 2026-11-23 stored
 * it, one kind of changed item at a time beside unchanged ones: items read per second, read units
 * per item read and write units (pricing rules) per item changed against the minimum.
 */
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { erasureKey } from '../../functions/model/erasure.js';
import { profileKey } from '../../functions/model/profile.js';
import { controlListKey, mirrorKey } from '../../functions/model/user-controls.js';
import { itemWrites } from '../capacity.js';
import type { BenchContext } from '../context.js';
import { uid, writeModelItems } from '../fixtures.js';
import { atMost, type Figure, figureOf } from '../report.js';
import { round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'migrate';
const fig = figureOf(S);
const FILLER = 4000;

interface Kind {
  readonly name: string;
  readonly count: number;
  /** The v2 items of one changed item (plus any unchanged companions). */
  items(i: number): Record<string, unknown>[];
  /** Write units the model needs per changed item, at the least (the pricing rules). */
  readonly minimumWrites: number;
  /** Why the migration pays more than that, where it does. */
  readonly why?: string;
}

const KINDS: Kind[] = [
  {
    name: 'mute/block entries',
    count: 1500,
    items: (i) => {
      const [u, t] = [uid('mig-u', i), uid('mig-t', i)];
      return [
        { ...controlListKey('mute', u, t), userId: t },
        { ...mirrorKey('mute', u, t), userId: u },
      ];
    },
    minimumWrites: 1,
    why: 'a two-item transaction (the list entry checked, the check entry put), 2 units each: a mute lifted between the Scan and the write is never brought back',
  },
  {
    name: 'pulled profiles',
    count: 50,
    items: (i) => [{ ...profileKey(uid('mig-star', i)), pulled: true, followers: 5000, following: 3 }],
    minimumWrites: 33,
    why: 'the profile and its 32 shards in one transaction (2 units an item), so a follow never sees the flag on some shards only',
  },
  { name: 'erase marks', count: 200, items: (i) => [{ ...erasureKey(uid('mig-gone', i)), done: true }], minimumWrites: 32 },
];

export const migrate: Scenario = {
  id: 'migrate',
  title: 'Data-model migration v2 → v3: items/s, read and write units per item',
  async run(ctx: BenchContext) {
    const { migrateToCurrent } = await import('../../functions/services/migrations/runner.js');
    const { MIGRATION_SEGMENTS } = await import('../../functions/services/migrations/job.js');
    const graph = ctx.stack.tableNames.graph;
    const figures: Figure[] = [];
    // Unchanged items every pass reads: profiles that were never pulled.
    const seed = (items: Record<string, unknown>[]) => writeModelItems(ctx, graph, items);
    await seed(Array.from({ length: FILLER }, (_, i) => ({ ...profileKey(uid('mig-plain', i)), followers: 3, following: 2 })));
    for (const kind of KINDS) {
      const items = Array.from({ length: kind.count }, (_, i) => kind.items(i)).flat();
      await seed(items);
      await markV2(ctx);
      const started = performance.now();
      const { value: outcome, spent: used } = await ctx.handlerCapacity.measure(() => migrateToCurrent({ totalSegments: MIGRATION_SEGMENTS }));
      const seconds = (performance.now() - started) / 1000;
      const graphUnits = { read: (used.tables[graph] ?? { read: 0 }).read, write: itemWrites(used, 2) }; // by the pricing rules: DynamoDB Local undercounts transactions
      if (outcome.state !== 'migrated') throw new Error(`expected a migration, got ${outcome.state}`);
      const { scanned, changed } = outcome.totals;
      const readPerItem = round(graphUnits.read / scanned, 3);
      const writePerChanged = round(graphUnits.write / Math.max(1, changed), 2);
      figures.push(
        fig(`${kind.name}: items read per second (${scanned} items, ${changed} changed)`, round(scanned / seconds, 0), 'items/s'),
        fig(`${kind.name}: read units per item read (minimum: one eventually consistent read, 0.5 per 4 KB)`, readPerItem, 'RCU', {
          ...atMost(readPerItem, 0.5),
        }),
        fig(`${kind.name}: write units per item changed vs the model's minimum (${kind.minimumWrites})`, round(writePerChanged / kind.minimumWrites, 2), '×', {
          ...atMost(writePerChanged / kind.minimumWrites, 1.05),
          note: `${writePerChanged} WCU per item${kind.why ? `; ${kind.why}` : ''}`,
        }),
      );
      // The next kind is measured alone: this one's partitions go whole (and every item the migration made there).
      for (const pk of new Set(items.map((i) => String(i.pk)))) await deleteItems(ctx, pk);
    }
    // A second run finds the tables current: one read, nothing written.
    const { value: again, spent: used } = await ctx.handlerCapacity.measure(() => migrateToCurrent({ totalSegments: MIGRATION_SEGMENTS }));
    figures.push(
      fig('a second run: write units (the tables are current)', used.write, 'WCU', { target: '0', met: again.state === 'current' && used.write === 0 }),
    );
    return figures;
  },
};

/** Deletes the graph items of partition `pk` (those whose sort key starts with `skPrefix`, when given). */
async function deleteItems(ctx: BenchContext, pk: string, skPrefix?: string): Promise<void> {
  const TableName = ctx.stack.tableNames.graph;
  const { Items = [] } = await ctx.doc.send(
    new QueryCommand({
      TableName,
      KeyConditionExpression: skPrefix === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':pk': pk, ...(skPrefix === undefined ? {} : { ':s': skPrefix }) },
    }),
  );
  for (const item of Items) await ctx.doc.send(new DeleteCommand({ TableName, Key: { pk: item.pk, sk: item.sk } }));
}

/** The tables as the older release left them: version 2, no run on record. */
async function markV2(ctx: BenchContext): Promise<void> {
  await ctx.doc.send(new PutCommand({ TableName: ctx.stack.tableNames.graph, Item: { pk: 'meta#data-model', sk: 'version', version: 2 } }));
  await deleteItems(ctx, 'meta#data-model', 'run#');
}
