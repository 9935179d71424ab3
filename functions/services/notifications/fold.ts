/**
 * Folding a batch's notify jobs per recipient: a burst of follows of one user arrives as many
 * one-event jobs, and applying each alone is one contended transaction per follow on the same
 * notification group. Folded, a recipient's jobs in one batch become a few applies of up to
 * MAX_JOB_EVENTS events each (one transaction each). Jobs are never split: a fold fails or succeeds
 * with all its messages, which then come back together (applying an event twice changes nothing).
 */
import type { NotifyJob } from './events.js';
import { MAX_JOB_EVENTS } from './notify-job.js';

export interface Fold {
  readonly recipient: string;
  readonly events: NotifyJob['events'];
  /** Indexes (in the batch) of the jobs folded here. */
  readonly members: number[];
}

/** The folds of a batch's notify jobs, in first-seen order. */
export function foldNotifyJobs(jobs: readonly NotifyJob[]): Fold[] {
  const open = new Map<string, { recipient: string; events: NotifyJob['events'][number][]; members: number[] }>();
  const folds: Fold[] = [];
  jobs.forEach((job, i) => {
    let fold = open.get(job.recipient);
    if (fold && fold.events.length + job.events.length > MAX_JOB_EVENTS) fold = undefined;
    if (!fold) {
      fold = { recipient: job.recipient, events: [], members: [] };
      open.set(job.recipient, fold);
      folds.push(fold);
    }
    fold.events.push(...job.events);
    fold.members.push(i);
  });
  return folds;
}
