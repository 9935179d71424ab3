/**
 * The job registry (functions/services/jobs/): what a queue holds must mean the same after a
 * deploy. A body the release before the registry queued parses, and re-sends byte for byte (the
 * fan-out worker forwards pre-lanes jobs: services/jobs/legacy-queue.ts); each kind keeps its lane;
 * every kind has its runner; a lane refuses another lane's jobs.
 */
import { describe, expect, it } from 'vitest';
import { assertLane, jobDefs, type JobKind, kindsOfLane, laneOfJob, parseJob } from '../../functions/services/jobs/jobs.js';
import { runnerOfKind } from '../../functions/services/jobs/runners.js';
import { laneList } from '../../lib/defs/lanes.js';
import { jobKindsTable } from '../../local/docs-jobs.js';

/** One body of each kind, as the release before the registry wrote it (JSON.stringify of its jobs). */
const queuedBefore: Record<JobKind, string[]> = {
  fanout: [
    '{"kind":"fanout","author":"alice","rk":"9223370000000000000","image":{"rk":{"N":"9223370000000000000"},"verb":{"S":"post"}}}',
    '{"kind":"fanout","author":"alice","rk":"9223370000000000000","image":{"rk":{"N":"9223370000000000000"}},"cursor":"c1"}',
  ],
  retract: ['{"kind":"retract","author":"alice","rk":"12"}', '{"kind":"retract","author":"alice","rk":"12","cursor":"c1"}'],
  backfill: ['{"kind":"backfill","follower":"bob","followee":"alice"}'],
  cleanup: ['{"kind":"cleanup","follower":"bob","followee":"alice"}', '{"kind":"cleanup","follower":"bob","followee":"alice","final":true}'],
  muteCleanup: ['{"kind":"muteCleanup","follower":"bob","followee":"alice"}'],
  pull: ['{"kind":"pull","author":"alice"}', '{"kind":"pull","author":"alice","cursor":"c1"}'],
  unpull: ['{"kind":"unpull","author":"alice","cursor":"c1"}'],
  notify: [
    '{"kind":"notify","recipient":"bob","events":[{"kind":"follow","verb":"follow","object":"user:bob","actor":"alice","id":"f1","ticks":"17"}]}',
    // Queued before events had kinds.
    '{"kind":"notify","recipient":"bob","events":[{"verb":"like","object":"act:1","actor":"alice","id":"r1","ticks":"17","source":"act:1"}]}',
  ],
  purge: ['{"kind":"purge","author":"alice","rk":"12"}'],
  erase: ['{"kind":"erase","user":"alice","phase":"mark"}', '{"kind":"erase","user":"alice","phase":"feed"}'],
  migrate: ['{"kind":"migrate","to":3,"segment":1,"totalSegments":4}'],
  // Added after the registry (activity-aware fan-out): pinned as its first release sends it.
  stamp: [
    '{"kind":"stamp","reader":"bob","until":"1764000000000000000"}',
    '{"kind":"stamp","reader":"bob","until":"1764000000000000000","since":"1763000000000000000","cursor":"alice"}',
  ],
  // New with the background lane: a stamp with nothing missing, as ask.ts and its own pages send it.
  restamp: [
    '{"kind":"restamp","reader":"bob","until":"1764000000000000000"}',
    '{"kind":"restamp","reader":"bob","until":"1764000000000000000","cursor":"alice"}',
    '{"kind":"restamp","reader":"bob","until":"1764000000000000000","cursor":"x","tags":true}',
  ],
  // Added with edits (after the registry): its bodies as the outbox and its own pages send them.
  edit: ['{"kind":"edit","author":"alice","rk":"12","version":2}', '{"kind":"edit","author":"alice","rk":"12","version":3,"cursor":"c1"}'],
  // New with hashtags (after the registry): the bodies this release sends.
  tagFanout: [
    '{"kind":"tagFanout","author":"alice","rk":"12","tag":"café","image":{"rk":{"N":"12"}}}',
    '{"kind":"tagFanout","author":"alice","rk":"12","tag":"café","image":{"rk":{"N":"12"}},"cursor":"bob"}',
  ],
  tagRetract: [
    '{"kind":"tagRetract","author":"alice","rk":"12","tag":"café"}',
    '{"kind":"tagRetract","author":"alice","rk":"12","tag":"café","keptTags":["tea"]}',
  ],
  tagCleanup: ['{"kind":"tagCleanup","user":"bob","tag":"café","followedAt":"17"}'],
  // New with edits reaching tag followers: the bodies this release sends.
  tagEdit: [
    '{"kind":"tagEdit","author":"alice","rk":"12","tag":"café","version":2}',
    '{"kind":"tagEdit","author":"alice","rk":"12","tag":"café","version":2,"cursor":"bob"}',
  ],
};

/** The lane each kind ran on when sent at once, before the registry (lib/defs/lanes.ts jobLanes). */
const laneBefore: Record<JobKind, string> = {
  fanout: 'fanout',
  backfill: 'followup',
  retract: 'followup',
  cleanup: 'followup',
  muteCleanup: 'followup',
  notify: 'notify',
  erase: 'maintenance',
  purge: 'maintenance',
  pull: 'maintenance',
  unpull: 'maintenance',
  migrate: 'maintenance',
  stamp: 'followup',
  restamp: 'background',
  edit: 'fanout',
  tagFanout: 'fanout',
  tagRetract: 'followup',
  tagCleanup: 'followup',
  tagEdit: 'fanout',
};

const kinds = jobDefs.map((def) => def.kind);

describe('the job registry', () => {
  it('knows every kind the release before it queued, and no other', () => {
    expect([...kinds].sort()).toEqual(Object.keys(queuedBefore).sort());
  });

  it('parses every body queued before it and sends it on unchanged, byte for byte', () => {
    for (const body of Object.values(queuedBefore).flat()) expect(JSON.stringify(parseJob(body))).toBe(body);
  });

  it('drops what no kind declares (as before: the body it forwards is the parsed job)', () => {
    expect(JSON.stringify(parseJob('{"kind":"backfill","follower":"bob","followee":"alice","extra":1}'))).toBe(
      '{"kind":"backfill","follower":"bob","followee":"alice"}',
    );
  });

  it('keeps each kind on its lane, and sends every delayed job (a settle re-run) to maintenance, but a restamp spread over time to background', () => {
    for (const kind of kinds) {
      expect(laneOfJob({ kind }), kind).toBe(laneBefore[kind]);
      expect(laneOfJob({ kind }, 60), kind).toBe(kind === 'restamp' ? 'background' : 'maintenance');
    }
    expect([...new Set(laneList.flatMap((lane) => kindsOfLane(lane.id)))].sort()).toEqual([...kinds].sort());
  });

  it('sends a fan-out’s (and a tag fan-out’s) further pages to the tail lane, and still runs those a release before it queued on the fanout lane', () => {
    const [first, further] = queuedBefore.fanout.map((body) => parseJob(body));
    expect(laneOfJob(first!)).toBe('fanout');
    expect(laneOfJob(further!)).toBe('fanoutTail');
    expect(laneOfJob({ kind: 'retract', cursor: 'c1' })).toBe('followup'); // a kind without a tail lane keeps its pages
    const [tagFirst, tagFurther] = queuedBefore.tagFanout.map((body) => parseJob(body));
    expect(laneOfJob(tagFirst!)).toBe('fanout');
    expect(laneOfJob(tagFurther!)).toBe('fanoutTail'); // a hot tag's further pages, as a post's
    expect(assertLane(tagFurther!, 'fanout')).toBe(tagFurther);
    expect(assertLane(further!, 'fanoutTail')).toBe(further);
    expect(assertLane(further!, 'fanout')).toBe(further);
    expect(() => assertLane(first!, 'followup')).toThrow(expect.objectContaining({ name: 'InvalidJobError' }));
  });

  it('runs the fanout lane’s kinds, first pages and further, on its backlog (where a job that waited too long is handed on), and no other kind', () => {
    for (const kind of ['fanout', 'edit', 'tagFanout', 'tagEdit'] as const) {
      for (const body of queuedBefore[kind]) expect(assertLane(parseJob(body), 'fanoutBacklog')).toEqual(parseJob(body));
    }
    expect(kindsOfLane('fanoutBacklog').sort()).toEqual(['edit', 'fanout', 'tagEdit', 'tagFanout']);
    expect(() => assertLane(parseJob(queuedBefore.backfill[0]!), 'fanoutBacklog')).toThrow(expect.objectContaining({ name: 'InvalidJobError' }));
    // Never sent there directly: only handed on (services/jobs/backlog.ts).
    for (const kind of kinds) expect(laneOfJob({ kind })).not.toBe('fanoutBacklog');
  });

  it('sends a handed-on (late) job’s further pages to the backlog after it, not to the tail lane in front of a fresh post’s', () => {
    for (const kind of kindsOfLane('fanoutBacklog')) {
      for (const job of queuedBefore[kind].map((body) => ({ ...parseJob(body), late: true as const }))) {
        expect(parseJob(JSON.stringify(job)), kind).toEqual(job); // the mark survives the parse a worker does
        expect(laneOfJob(job), kind).toBe('fanoutBacklog');
      }
    }
    expect(laneOfJob({ kind: 'retract', cursor: 'c1', late: true })).toBe('followup'); // a lane without a backlog keeps its jobs
  });

  // Not `runner.def.kind === kind`: runners.ts keys its map by that, so it holds by construction.
  // A runner must be bound to the registry's own definition (its lane, tail lane and schema), not
  // to a look-alike with the same kind: the dispatcher parses with the registry's schema and the
  // bus routes by the registry's lane, so a runner declaring its own copy would disagree with both.
  it('binds every kind’s runner to the registry’s definition of that kind', () => {
    for (const def of jobDefs) expect(runnerOfKind(def.kind)?.def, def.kind).toBe(def);
  });

  it('lets a lane run its own kinds, maintenance any kind, and refuses the rest', () => {
    const backfill = parseJob(queuedBefore.backfill[0]!);
    expect(assertLane(backfill, 'followup')).toBe(backfill);
    expect(assertLane(backfill, 'maintenance')).toBe(backfill);
    expect(() => assertLane(backfill, 'notify')).toThrow(
      expect.objectContaining({ name: 'InvalidJobError', message: expect.stringContaining('followup lane') }),
    );
  });
});

describe('docs/lanes.md', () => {
  it('lists the kinds each lane is sent, as the registry has them (npm run docs rewrites it; test/unit/docs.test.ts checks it is current)', () => {
    for (const kind of kinds) expect(jobKindsTable()).toContain(`\`${kind}\``);
  });
});
