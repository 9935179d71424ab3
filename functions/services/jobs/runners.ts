/**
 * The code that runs each job kind (a JobRunner beside that code): the lane workers' dispatcher
 * (run.ts) and their batches (handlers/lane-worker.ts) read it. Every kind of jobs.ts must have
 * exactly one runner here — one missing fails to compile, one twice fails at load.
 */
import { purgeRunner } from '../deleted-posts/purge.js';
import { retractRunner } from '../deleted-posts/retract-copies.js';
import { editRunner } from '../edits/copies.js';
import { eraseRunner } from '../erase/erase.js';
import { fanoutRunner } from '../fanout/author-fanout.js';
import { backfillRunner } from '../follow-copies/backfill.js';
import { cleanupRunner, muteCleanupRunner } from '../follow-copies/unfollow-cleanup.js';
import { migrateRunner } from '../migrations/job.js';
import { notifyRunner } from '../notifications/batch.js';
import { pullRunner } from '../pulled-authors/pull.js';
import { unpullRunner } from '../pulled-authors/unpull.js';
import { restampRunner, stampRunner } from '../reader-activity/stamp.js';
import { tagCleanupRunner } from '../tags/tag-cleanup.js';
import { tagEditRunner } from '../tags/edit-copies.js';
import { tagFanoutRunner } from '../tags/tag-fanout.js';
import { tagRetractRunner } from '../tags/tag-retract.js';
import type { JobRunner } from './define.js';
import type { Job, JobKind } from './jobs.js';

const runners = [
  fanoutRunner,
  retractRunner,
  backfillRunner,
  cleanupRunner,
  pullRunner,
  unpullRunner,
  notifyRunner,
  purgeRunner,
  muteCleanupRunner,
  eraseRunner,
  migrateRunner,
  stampRunner,
  restampRunner,
  editRunner,
  tagFanoutRunner,
  tagRetractRunner,
  tagCleanupRunner,
  tagEditRunner,
] as const;

type Unrun = Exclude<JobKind, (typeof runners)[number]['def']['kind']>;
/** Names, at compile time, a kind nothing runs. */
const everyKindRuns: [Unrun] extends [never] ? true : { kindsWithoutARunner: Unrun } = true;
void everyKindRuns;

const runnerOf = new Map<string, JobRunner>(runners.map((runner) => [runner.def.kind, runner as JobRunner]));
if (runnerOf.size !== runners.length) throw new Error('two runners for one job kind');

/** The runner of a job's kind. */
export const runnerOfKind = (kind: Job['kind']): JobRunner => runnerOf.get(kind)!;
