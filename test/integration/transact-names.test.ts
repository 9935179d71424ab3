/**
 * Named transaction parts (functions/platform/dynamo/transact.ts) against DynamoDB Local: a
 * cancellation says which named parts' conditions failed — whatever their position, optional
 * parts left out included — and hands back the item as it stood when the part asked for it.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { transact } from '../../functions/platform/dynamo/transact.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';

const table = () => stack.tableNames.graph;
const key = (name: string) => ({ pk: `test#${name}`, sk: 'item' });

describe('transact with named parts', () => {
  it('reads a cancellation by name, with the old item of a part that asked for it', async () => {
    const [a, b, c, d] = [uid('tx-a'), uid('tx-b'), uid('tx-c'), uid('tx-d')];
    await doc.send(new PutCommand({ TableName: table(), Item: { ...key(b), version: 7, note: 'here' } }));
    const attempt = (withOptional: boolean) =>
      transact<'first' | 'optional' | 'taken' | 'last'>([
        ['first', { Put: { TableName: table(), Item: { ...key(a), v: 1 } } }],
        withOptional && ['optional', { ConditionCheck: { TableName: table(), Key: key(c), ConditionExpression: 'attribute_not_exists(pk)' } }],
        ['taken', { Put: { TableName: table(), Item: { ...key(b), v: 1 }, ConditionExpression: 'attribute_not_exists(pk)' }, returnOld: true }],
        ['last', { Update: { TableName: table(), Key: key(d), UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': 1 } } }],
      ]);
    for (const withOptional of [true, false]) {
      const out = await attempt(withOptional);
      expect(out.ok).toBe(false);
      if (out.ok) return;
      expect([...out.failed]).toEqual(['taken']);
      expect(out.conflict).toBe(false);
      expect(out.old.taken).toMatchObject({ ...key(b), note: 'here' });
      expect(String(out.old.taken?.version)).toBe('7');
    }
  });

  it('commits when every condition holds', async () => {
    const a = uid('tx-ok');
    const out = await transact<'x' | 'y'>([
      ['x', { Put: { TableName: table(), Item: key(a), ConditionExpression: 'attribute_not_exists(pk)' } }],
      ['y', { Put: { TableName: table(), Item: key(`${a}-2`) } }],
    ]);
    expect(out).toEqual({ ok: true });
  });
});
