/**
 * platform/dynamo/query.ts queryListPage, against a fake document client (pure paging logic; the
 * real Query is exercised by every integration test that lists): one item more than the page is
 * read to know whether more follow, and a Query DynamoDB cut at 1 MB before that item still says
 * where to go on — a follower walk (fan-out, retract, pull) must not end at such a page.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

type Input = { Limit: number; ExclusiveStartKey?: { pk: string; sk: string } };
const fake = vi.hoisted(() => ({
  inputs: [] as Input[],
  /** The partition's sort keys, in order. */
  sks: [] as string[],
  /** Items a call returns at most, as DynamoDB's 1 MB would cut them (Infinity: no cut). */
  cut: Number.POSITIVE_INFINITY,
  send: async (command: { input: Input }) => {
    const input = command.input;
    fake.inputs.push(input);
    const from = input.ExclusiveStartKey ? fake.sks.indexOf(input.ExclusiveStartKey.sk) + 1 : 0;
    const taken = fake.sks.slice(from, from + Math.min(input.Limit, fake.cut));
    const stoppedEarly = from + taken.length < fake.sks.length && taken.length > 0;
    const reachedLimit = taken.length === input.Limit;
    return {
      Items: taken.map((sk) => ({ pk: 'p', sk })),
      ...(stoppedEarly || reachedLimit ? { LastEvaluatedKey: { pk: 'p', sk: taken.at(-1)! } } : {}),
    };
  },
}));
vi.mock('../../functions/platform/clients.js', () => ({ doc: { send: fake.send } }));

const { queryListPage, sortKeyOf } = await import('../../functions/platform/dynamo/query.js');

const walk = async (limit: number) => {
  const seen: string[] = [];
  let after: string | undefined;
  let calls = 0;
  do {
    const page = await queryListPage(
      { TableName: 't', KeyConditionExpression: 'pk = :pk', Limit: limit, ...(after ? { ExclusiveStartKey: { pk: 'p', sk: after } } : {}) },
      sortKeyOf,
    );
    calls++;
    seen.push(...page.items.map(sortKeyOf));
    after = page.last;
  } while (after !== undefined);
  return { seen, calls };
};

beforeEach(() => {
  fake.inputs.length = 0;
  fake.sks = Array.from({ length: 10 }, (_, i) => `k${String(i).padStart(2, '0')}`);
  fake.cut = Number.POSITIVE_INFINITY;
});

describe('queryListPage', () => {
  it('reads one more than it returns, and names no next page when none follows (10 items, pages of 5: two calls)', async () => {
    const { seen, calls } = await walk(5);
    expect(seen).toEqual(fake.sks);
    expect(calls).toBe(2);
    expect(fake.inputs.map((i) => i.Limit)).toEqual([6, 6]);
  });

  it('goes on after a page DynamoDB cut short at 1 MB, and reaches every item once', async () => {
    fake.cut = 3; // each call returns at most 3 items, with a LastEvaluatedKey while more remain
    const { seen } = await walk(5);
    expect(seen).toEqual(fake.sks);
  });
});
