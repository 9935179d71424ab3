/**
 * One user-id rule (1–256 characters, no control characters) at the edge: the JWT `sub`, path
 * parameters and job bodies. A token whose `sub` breaks it is refused before anything is written —
 * otherwise its posts would be stored and their fan-out jobs would dead-letter.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { timelinePartition } from '../../functions/model/timeline-item.js';
import { parseJob } from '../../functions/services/jobs/jobs.js';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';

const timelineSize = async (user: string) =>
  (
    await doc.send(
      new QueryCommand({
        TableName: stack.tableNames.feed,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': timelinePartition(user) },
        Select: 'COUNT',
      }),
    )
  ).Count;

describe('one user-id rule', () => {
  it('refuses a token whose sub is too long or has control characters (401), writing nothing', async () => {
    for (const sub of [`${uid('long')}-${'x'.repeat(256)}`, `${uid('ctl')}\u0007bell`]) {
      const res = await api('POST', '/activities', { as: sub, json: { verb: 'post' } });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(await timelineSize(sub)).toBe(0);
      expect((await api('PUT', `/following/${uid('target')}`, { as: sub })).status).toBe(401);
    }
    // The longest valid id works end to end.
    const longest = `${uid('max')}`.padEnd(256, 'y');
    expect((await api('POST', '/activities', { as: longest, json: { verb: 'post' } })).status).toBe(201);
    expect(await timelineSize(longest)).toBe(1);
  });

  it('refuses path parameters that break it (400), and jobs that carry them', async () => {
    const me = uid('paths');
    for (const bad of ['x'.repeat(257), 'a%07b']) {
      for (const [method, path] of [
        ['PUT', `/following/${bad}`],
        ['GET', `/users/${bad}`],
        ['GET', `/users/${bad}/activities`],
        ['GET', `/users/${bad}/followers`],
      ] as const) {
        const res = await api(method, path, { as: me });
        expect(res.status, `${method} ${path.slice(0, 40)}`).toBe(400);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
      }
    }
    expect((await api('GET', `/users/${me}`, { as: me })).body.following).toBe(0);
    expect(() => parseJob(JSON.stringify({ kind: 'backfill', follower: 'x'.repeat(257), followee: 'y' }))).toThrow(/invalid/);
  });
});
