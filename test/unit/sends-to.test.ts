/**
 * Which queues a function may send to is derived from the job routes (lib/defs/job-routes.ts):
 * each kind's lane for those that send it, maintenance for a settle re-run, and for a lane's worker
 * its own queue, its kinds' further-page lane and its backlog. The local runtime and IAM deny any
 * other send, so a missing queue fails there as it would in AWS.
 */
import { describe, expect, it } from 'vitest';
import { type JobRoute, jobRoutes } from '../../lib/defs/job-routes.js';
import { functions, functionList } from '../../lib/defs/functions.js';
import { laneOfKind } from '../../functions/services/jobs/jobs.js';
import type { JobKind } from '../../functions/services/jobs/jobs.js';

const sends = (fn: keyof typeof functions) => [...functions[fn].sendsTo].sort();

describe('sendsTo, from the job routes', () => {
  it('every sender of a kind may send to its lane, and a settling sender to maintenance too', () => {
    for (const [kind, route] of Object.entries(jobRoutes) as [JobKind, JobRoute][]) {
      for (const fn of route.sentBy) expect(functions[fn].sendsTo, `${fn} sends ${kind}`).toContain(laneOfKind(kind));
      for (const fn of route.settledBy ?? []) expect(functions[fn].sendsTo, `${fn} settles ${kind}`).toContain('maintenance');
    }
  });

  it('the maintenance worker may queue a backfill: a mute cleanup settle re-run owes one after an unmute (it was missing by hand)', () => {
    expect(sends('maintenanceWorker')).toEqual(['followup', 'maintenance']);
  });

  it('fan-out workers: the first lane hands on to its backlog and pages to the tail; the tail only continues itself', () => {
    expect(sends('fanoutBacklogWorker')).toEqual(['fanoutBacklog', 'fanoutTail', 'notify']);
    expect(sends('fanoutTailWorker')).toEqual(['fanoutTail']);
    // The pre-lanes queue's worker forwards what waited there to those lanes; no restamp ever did.
    expect(sends('fanoutWorker')).toEqual(['fanout', 'fanoutBacklog', 'fanoutTail', 'followup', 'maintenance', 'notify']);
  });

  it('senders of the API and the stream send what they enqueue, nothing more', () => {
    expect(sends('outbox')).toEqual(['fanout', 'followup', 'maintenance', 'notify']);
    expect(sends('feedRead')).toEqual(['background', 'followup']);
    expect(sends('account')).toEqual(['maintenance']);
    const silent = functionList.filter((f) => f.sendsTo.length === 0).map((f) => f.id);
    expect(silent).toEqual(expect.arrayContaining(['health', 'me', 'social', 'rollups', 'notifications', 'openapi']));
  });
});
