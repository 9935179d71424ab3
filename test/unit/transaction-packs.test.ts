/**
 * platform/dynamo/transact.ts packTransactions: changes that must each be all or nothing, packed into
 * as few transactions as they fit — never one item twice in a transaction (DynamoDB refuses it), an
 * identical check sent once, at most 100 items, first fit in order.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TRANSACTION_ITEMS, packTransactions as packWith, type TxItem } from '../../functions/platform/dynamo/transact.js';

/** Every table here keys on pk and sk, but the feed table on pk and rk (lib/defs/tables.ts). */
const packTransactions: typeof packWith = (groups) => packWith(groups, (table) => (table === 'feed' ? ['pk', 'rk'] : ['pk', 'sk']));

const put = (pk: string, sk: string, v = 1): TxItem => ({ Put: { TableName: 'graph', Item: { pk, sk, v } } });
const add = (pk: string, sk: string, n: number): TxItem => ({
  Update: { TableName: 'graph', Key: { pk, sk }, UpdateExpression: 'ADD c :n', ExpressionAttributeValues: { ':n': n } },
});
const check = (pk: string, rk: bigint): TxItem => ({ ConditionCheck: { TableName: 'feed', Key: { pk, rk }, ConditionExpression: 'attribute_exists(pk)' } });
const named = (items: TxItem[]) => items.map((item, i) => [`p${i}`, item] as const);

describe('packTransactions', () => {
  it('packs changes on different items into one transaction', () => {
    const packs = packTransactions([named([put('a', 'g'), add('a', 'head', 1)]), named([put('b', 'g'), add('b', 'head', 1)])]);
    expect(packs).toHaveLength(1);
    expect(packs[0]!.members).toEqual([0, 1]);
    expect(packs[0]!.parts).toHaveLength(4);
  });

  it('sends a check several changes make on one item once', () => {
    const packs = packTransactions([named([check('t#x', 5n), put('a', 'g')]), named([check('t#x', 5n), put('b', 'g')])]);
    expect(packs).toHaveLength(1);
    expect(packs[0]!.parts.filter(([, i]) => i.ConditionCheck)).toHaveLength(1);
  });

  it('puts changes that touch one item — even with the same update — into different transactions', () => {
    // Two groups of one recipient: both add to the recipient's head.
    const packs = packTransactions([
      named([put('a', 'g1'), add('a', 'head', 1)]),
      named([put('a', 'g2'), add('a', 'head', 1)]),
      named([put('b', 'g'), add('b', 'head', 1)]),
    ]);
    expect(packs.map((p) => p.members)).toEqual([[0, 2], [1]]);
    for (const p of packs) {
      const ids = p.parts.map(([, i]) => JSON.stringify((i.Put ?? i.Update)!.Key ?? (i.Put ?? i.Update)!.Item));
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it(`keeps each transaction within ${MAX_TRANSACTION_ITEMS} items, a change never split`, () => {
    const changes = Array.from({ length: 30 }, (_, c) => named(Array.from({ length: 7 }, (_, i) => put(`u${c}`, `s${i}`))));
    const packs = packTransactions(changes);
    expect(packs.map((p) => p.parts.length)).toEqual([98, 98, 14]);
    expect(packs.flatMap((p) => p.members)).toEqual(changes.map((_, i) => i));
  });

  it('sends a change larger than a transaction allows alone', () => {
    const big = named(Array.from({ length: MAX_TRANSACTION_ITEMS + 1 }, (_, i) => put('big', `s${i}`)));
    const packs = packTransactions([named([put('a', 'g')]), big, named([put('b', 'g')])]);
    expect(packs.map((p) => p.members)).toEqual([[0, 2], [1]]);
  });

  it('never shares an item between a check and a write: the write goes to another transaction', () => {
    const write: TxItem = {
      Update: { TableName: 'feed', Key: { pk: 't#x', rk: 5n }, UpdateExpression: 'SET deletedAt = :t', ExpressionAttributeValues: { ':t': 1 } },
    };
    const packs = packTransactions([named([check('t#x', 5n), put('a', 'g')]), named([write]), named([check('t#x', 5n), put('b', 'g')])]);
    expect(packs.map((p) => p.members)).toEqual([[0, 2], [1]]);
  });

  it('tells items apart by their table’s key: a Put’s key is read off its item', () => {
    // Same pk, different rk: two items of the feed table; an `sk` attribute on them is not part of their key.
    const a: TxItem = { Put: { TableName: 'feed', Item: { pk: 'f#o', rk: 1n, sk: 'same' } } };
    const b: TxItem = { Put: { TableName: 'feed', Item: { pk: 'f#o', rk: 2n, sk: 'same' } } };
    expect(packTransactions([named([a]), named([b])]).map((p) => p.members)).toEqual([[0, 1]]);
    expect(packTransactions([named([a]), named([{ Put: { TableName: 'feed', Item: { pk: 'f#o', rk: 1n, v: 2 } } }])]).map((p) => p.members)).toEqual([
      [0],
      [1],
    ]);
  });
});
