/**
 * The graph table as a bulk follow import reads it (services/bulk/follows.ts): the graph read in
 * one strongly consistent BatchGet, and the import's journal (model/follow-import.ts). The
 * follows it writes — edges, list entries, counts — go through their owner, follow-store.ts.
 * Every key comes from model/.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { erasureKey } from '../model/erasure.js';
import { type Edge, followEdgeKey, parseEdge } from '../model/follow-edge.js';
import {
  type CountChange,
  type FollowPair,
  type ImportJournal,
  importCountMarkKey,
  importJournalKey,
  IMPORT_JOURNAL_TTL_SECONDS,
  journalItem,
  parseJournal,
} from '../model/follow-import.js';
import { parseProfile, type Profile, profileKey } from '../model/profile.js';
import { checkPrefix, controlCheckKey, controlPartition, hashOfCheckSk, mirrorPrefix, otherOfControlSk } from '../model/user-controls.js';
import { shortHash } from '../model/short-hash.js';
import { doc } from '../platform/clients.js';
import { batchGetAll } from '../platform/dynamo/batch-get.js';
import { isConditionalCheckFailed } from '../platform/dynamo/dynamo-errors.js';
import { queryAll } from '../platform/dynamo/query.js';
import { tableName } from '../platform/env.js';
import { forEachLimit } from '../platform/pool.js';
import { AGAIN, RETRY, retrying } from '../platform/retry.js';
import { transact, type TxPart } from '../platform/dynamo/transact.js';
import { countUpdates } from './follow-store.js';

const graph = () => tableName('graph');
const nowSeconds = () => Math.floor(Date.now() / 1000);
const id = (key: { pk: string; sk: string }) => `${key.pk}\n${key.sk}`;

/** What to read: edges and control checks of some edges of the batch, erase marks and profiles of some users. */
export interface ImportReadRequest {
  readonly edges?: readonly number[];
  readonly controls?: readonly number[];
  readonly erasure?: readonly string[];
  readonly profiles?: readonly string[];
}

export interface ImportRead {
  readonly edges: ReadonlyMap<number, Edge | undefined>;
  readonly blocked: ReadonlySet<number>;
  readonly muted: ReadonlySet<number>;
  readonly erased: ReadonlySet<string>;
  /** The profile item alone (following, pulled, graphVersion): not the follower-count shards. */
  readonly profiles: ReadonlyMap<string, Profile>;
}

/** A follower with this many edges to check has their mutes and blocks read by two Queries of their own partition instead of two keys an edge. */
const QUERY_CONTROLS_FROM = 4;

/**
 * One strongly consistent BatchGet (100 keys a call) of everything `req` names — but the mutes and
 * blocks of a follower with many edges to check come from two Queries of their controls partition
 * (their mute check entries, hashed, and the mirrors of the blocks placed on them), run alongside.
 */
export async function readForImport(pairs: readonly FollowPair[], req: ImportReadRequest): Promise<ImportRead> {
  const perFollower = new Map<string, number>();
  for (const i of req.controls ?? []) perFollower.set(pairs[i]!.follower, (perFollower.get(pairs[i]!.follower) ?? 0) + 1);
  const queried = new Set([...perFollower].filter(([, n]) => n >= QUERY_CONTROLS_FROM).map(([f]) => f));
  const keyed = (req.controls ?? []).filter((i) => !queried.has(pairs[i]!.follower));
  const edgeKeys = (req.edges ?? []).map((i) => [i, followEdgeKey(pairs[i]!.follower, pairs[i]!.followee)] as const);
  // Either way: the followee blocked the follower, or the follower blocks the followee (follow-graph.ts refuses both).
  const blockKeys = keyed.flatMap((i) => [
    [i, controlCheckKey('block', pairs[i]!.followee, pairs[i]!.follower)] as const,
    [i, controlCheckKey('block', pairs[i]!.follower, pairs[i]!.followee)] as const,
  ]);
  const muteKeys = keyed.map((i) => [i, controlCheckKey('mute', pairs[i]!.follower, pairs[i]!.followee)] as const);
  const erasureKeys = [...new Set(req.erasure ?? [])].map((u) => [u, erasureKey(u)] as const);
  const profileKeys = [...new Set(req.profiles ?? [])].map((u) => [u, profileKey(u)] as const);
  const keys = [...edgeKeys, ...blockKeys, ...muteKeys, ...erasureKeys, ...profileKeys].map(([, k]) => k);
  const [items, controls] = await Promise.all([batchGetAll(graph(), dedupe(keys), { consistent: true }), controlsOf([...queried])]);
  const found = new Map(items.map((item) => [id(item as { pk: string; sk: string }), item]));
  const viaQuery = (req.controls ?? []).filter((i) => queried.has(pairs[i]!.follower));
  return {
    edges: new Map(edgeKeys.map(([i, k]) => [i, parseEdge(found.get(id(k)))])),
    blocked: new Set([
      ...blockKeys.filter(([, k]) => found.has(id(k))).map(([i]) => i),
      ...viaQuery.filter((i) => {
        const c = controls.get(pairs[i]!.follower)!;
        return c.blockedBy.has(pairs[i]!.followee) || c.blocking.has(shortHash(pairs[i]!.followee));
      }),
    ]),
    muted: new Set([
      ...muteKeys.filter(([, k]) => found.has(id(k))).map(([i]) => i),
      ...viaQuery.filter((i) => controls.get(pairs[i]!.follower)!.muted.has(shortHash(pairs[i]!.followee))),
    ]),
    erased: new Set(erasureKeys.filter(([, k]) => found.has(id(k))).map(([u]) => u)),
    profiles: new Map(profileKeys.map(([u, k]) => [u, parseProfile(found.get(id(k)))])),
  };
}

/** Who blocked each of `users` (their mirrors), and whom they muted and block (their check entries' hashes): three Queries each. */
async function controlsOf(users: readonly string[]): Promise<Map<string, { blockedBy: Set<string>; muted: Set<string>; blocking: Set<string> }>> {
  const out = new Map<string, { blockedBy: Set<string>; muted: Set<string>; blocking: Set<string> }>();
  const under = (user: string, prefix: string) =>
    queryAll({
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': controlPartition(user), ':p': prefix },
      ProjectionExpression: 'sk',
      ConsistentRead: true,
    });
  await forEachLimit(users, 8, async (user) => {
    const [mirrors, checks, blocks] = await Promise.all([
      under(user, mirrorPrefix('block')),
      under(user, checkPrefix('mute')),
      under(user, checkPrefix('block')),
    ]);
    out.set(user, {
      blockedBy: new Set(mirrors.map((i) => otherOfControlSk(String(i.sk)))),
      muted: new Set(checks.map((i) => hashOfCheckSk(String(i.sk)))),
      blocking: new Set(blocks.map((i) => hashOfCheckSk(String(i.sk)))),
    });
  });
  return out;
}

/** BatchGetItem refuses a key twice in one call. */
function dedupe<K extends { pk: string; sk: string }>(keys: readonly K[]): K[] {
  const seen = new Set<string>();
  return keys.filter((k) => !seen.has(id(k)) && seen.add(id(k)));
}

// ---- the journal -------------------------------------------------------------------------------

export async function getImportJournal(batchId: string): Promise<ImportJournal | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: graph(), Key: importJournalKey(batchId), ConsistentRead: true }));
  return parseJournal(Item);
}

/** Start a batch's journal: `taken` when another call of the same batch started one that is not done. */
export async function startImportJournal(batchId: string, journal: ImportJournal): Promise<'started' | 'taken'> {
  try {
    await doc.send(
      new PutCommand({
        TableName: graph(),
        Item: journalItem(batchId, journal, nowSeconds()),
        ConditionExpression: 'attribute_not_exists(pk) OR phase = :done',
        ExpressionAttributeValues: { ':done': 'done' },
      }),
    );
    return 'started';
  } catch (error) {
    if (isConditionalCheckFailed(error)) return 'taken';
    throw error;
  }
}

/** Record the journal's next phase (only this batch's calls write it; each writes what the plan implies). */
export async function saveImportJournal(batchId: string, journal: ImportJournal): Promise<void> {
  await doc.send(new PutCommand({ TableName: graph(), Item: journalItem(batchId, journal, nowSeconds()) }));
}

// ---- counts ------------------------------------------------------------------------------------

/**
 * Counter transaction `n` of a batch planned at `nonce`: its mark (conditioned: absent) and its
 * changes — followers on follower-count shard `shard` of each followee, following on each
 * follower's profile item. `already` when the mark stood: an earlier attempt counted them.
 * A transaction that lost a race is retried (platform/retry.ts); parts are read by name.
 */
export async function applyImportCounts(
  batchId: string,
  nonce: bigint,
  n: number,
  changes: readonly CountChange[],
  shard: number,
): Promise<'applied' | 'already'> {
  const mark = { ...importCountMarkKey(batchId, nonce, n), expiresAt: nowSeconds() + IMPORT_JOURNAL_TTL_SECONDS };
  const updates = countUpdates(changes, shard);
  const parts: TxPart<string>[] = [
    ['mark', { Put: { TableName: graph(), Item: mark, ConditionExpression: 'attribute_not_exists(pk)' } }],
    ...updates.map((u, i) => [`count:${i}`, u] as const),
  ];
  return retrying(`import counts ${batchId} #${n}`, RETRY.request, async () => {
    const out = await transact(parts);
    return out.ok ? 'applied' : out.failed.has('mark') ? 'already' : AGAIN;
  });
}
