/** Stack-only settings from cdk.json context: parsed up front, a bad value names its context key. */
import { describe, expect, it } from 'vitest';
import { ConfigError, readDeploymentSettings } from '../../lib/defs/index.js';

const from = (context: Record<string, unknown>) => readDeploymentSettings((key) => context[key]);

describe('deployment settings', () => {
  it('have defaults: no route throttles, each lane its own concurrency, iterator-age alarm at 5 minutes, no e-mail', () => {
    expect(from({})).toEqual({
      routeThrottles: {},
      maxConcurrency: { fanoutJobs: 10, fanoutTailJobs: 5, fanoutBacklogJobs: 10, followupJobs: 5, notifyJobs: 5, maintenanceJobs: 2, backgroundJobs: 2 },
      iteratorAgeAlarmMs: 300_000,
    });
  });

  it('read route throttles as JSON text or as an object', () => {
    const want = { 'POST /activities': { rateLimit: 50, burstLimit: 100 } };
    expect(from({ routeThrottles: JSON.stringify(want) }).routeThrottles).toEqual(want);
    expect(from({ routeThrottles: want }).routeThrottles).toEqual(want);
  });

  it.each([
    [{ 'POST /nope': { rateLimit: 1, burstLimit: 1 } }, /not a route/],
    [{ 'POST /activities': { rateLimit: 0, burstLimit: 1 } }, /rateLimit/],
    [{ 'POST /activities': { rateLimit: 5, burstLimit: 1.5 } }, /burstLimit/],
    [{ 'POST /activities': { rateLimit: 5, burstLimit: 1, extra: 1 } }, /unknown field/],
    [[1, 2], /expected an object/],
    ['{not json', /JSON|Unexpected|Expected/],
  ])('refuse route throttles %j', (value, message) => {
    expect(() => from({ routeThrottles: value })).toThrow(ConfigError);
    expect(() => from({ routeThrottles: value })).toThrow(message);
    expect(() => from({ routeThrottles: value })).toThrow(/routeThrottles/);
  });

  it('bound each lane’s concurrency to Lambda’s 2–1000, one lane at a time', () => {
    expect(from({ fanoutMaxConcurrency: '25' }).maxConcurrency).toMatchObject({ fanoutJobs: 25, followupJobs: 5 });
    expect(from({ fanoutMaxConcurrency: 2, maintenanceMaxConcurrency: 4 }).maxConcurrency).toMatchObject({ fanoutJobs: 2, maintenanceJobs: 4 });
    for (const bad of ['1', '1001']) expect(() => from({ notifyMaxConcurrency: bad })).toThrow(/notifyMaxConcurrency/);
    for (const bad of ['1', '1001', 'many', '2.5']) expect(() => from({ fanoutMaxConcurrency: bad })).toThrow(/fanoutMaxConcurrency/);
  });

  it('read the alarm e-mail and iterator-age threshold', () => {
    expect(from({ alarmEmail: 'ops@example.com', iteratorAgeAlarm: '2m' })).toMatchObject({ alarmEmail: 'ops@example.com', iteratorAgeAlarmMs: 120_000 });
    expect(() => from({ alarmEmail: 'not-an-address' })).toThrow(/alarmEmail/);
    expect(() => from({ iteratorAgeAlarm: '10s' })).toThrow(/iteratorAgeAlarm/);
  });
});
