/**
 * Fresh posts first (docs/lanes.md, "A fresh post overtakes a backlog"). SQS hands a lane's jobs out
 * roughly oldest first, so under a standing queue — a burst of thousands of posts, each with its own
 * first page — the post made now waits behind all of them, while its readers are the ones still
 * looking. As in Facebook's adaptive LIFO with CoDel-style deadlines ("Fail at Scale", 2015), the
 * queue's own wait decides: a job that waited in the `fanout` queue longer than FANOUT_BACKLOG_AFTER
 * shows the lane is behind, so it is handed, unrun, to the backlog lane (`fanoutBacklog`, its own
 * pool), at the cost of one send per 10 jobs. The fanout pool then spends itself on jobs that are
 * still fresh, and the backlog drains beside it; a fresh post's further pages (fanoutTail) never
 * queue behind the backlog either: a handed-on job's own further pages follow it to the backlog.
 *
 * Nothing is lost or copied twice: a job leaves this queue only once its send to the backlog was
 * accepted (else it comes back, and is handed on again); a job handed on twice (its message came
 * back after the send) writes the same copies, keyed by the post's rk; and a page copies the post as
 * its first check reads it (fanout/author-fanout.ts), so a handed-on page that runs after the post's edit or
 * delete writes the edit, or nothing.
 */
import type { SQSRecord } from 'aws-lambda';
import { setting } from '../../../lib/defs/config.js';
import { type LaneId, lanes } from '../../../lib/defs/lanes.js';
import { logger } from '../../platform/logger.js';
import { recordBacklogged, recordQueueWait } from '../../platform/metrics.js';
import { sendMessages } from '../../stores/job-queue.js';
import { lanesOfKind, parseJob } from './jobs.js';

/**
 * Whether a job that waited `waitedMs` in its queue goes to the backlog: only where the lane has one,
 * only past the deadline (`afterMs` undefined: never), and only a first delivery. A message that
 * came back (its page may have written, then died) runs where it is: run as a redelivery, a page
 * whose post was deleted meanwhile takes back what it may have written (fanout/author-fanout.ts takeBack), which
 * a hand-on, arriving at the backlog as a first delivery, would not.
 */
export function goesToBacklog(waitedMs: number, afterMs: number | undefined, backlog: LaneId | undefined, receiveCount = 1): boolean {
  return backlog !== undefined && afterMs !== undefined && waitedMs >= afterMs && receiveCount <= 1;
}

/** How long a message waited in its queue before this receive (SQS SentTimestamp), ms. */
const waitedOf = (record: SQSRecord, nowMs: number) => Math.max(0, nowMs - Number(record.attributes.SentTimestamp));

/**
 * Whether the backlog runs the record's job: a kind of the lane (a job of another kind — one queued
 * on the fanout queue before the lanes — stays, and is forwarded to its own lane: legacy-queue.ts).
 * A record that does not parse stays too, and fails where it is.
 */
function backlogRuns(record: SQSRecord, backlog: LaneId): boolean {
  try {
    return lanesOfKind(parseJob(record.body).kind).includes(backlog);
  } catch {
    return false;
  }
}

/**
 * The job as handed on: unchanged but for `late` (fields.ts), so its further pages follow it to the
 * backlog (jobs.ts laneOfJob) rather than queue in the tail lane in front of a fresh post's.
 */
const markedLate = (body: string): string => JSON.stringify({ ...(JSON.parse(body) as object), late: true });

/**
 * Splits a batch: the records to run here, and those handed to the lane's backlog, each with the
 * promise of its send (settled when the backlog queue accepted it; rejected so its message comes
 * back: a send that fails outright fails them all, and those already accepted are sent again, which
 * the jobs' idempotence makes harmless).
 */
export function handOnStale(records: readonly SQSRecord[], lane: LaneId, nowMs: number): { run: SQSRecord[]; handed: Map<string, Promise<void>> } {
  const backlog = lanes[lane].backlog;
  const waited = records.map((r) => waitedOf(r, nowMs));
  if (waited.length) recordQueueWait(Math.max(...waited));
  const afterMs = backlog ? setting('FANOUT_BACKLOG_AFTER') : undefined;
  const stale = records.filter((r, i) => goesToBacklog(waited[i]!, afterMs, backlog, Number(r.attributes.ApproximateReceiveCount)) && backlogRuns(r, backlog!));
  const handed = new Map<string, Promise<void>>();
  if (!stale.length) return { run: [...records], handed };
  const sent = sendMessages(
    backlog!,
    stale.map((r) => markedLate(r.body)),
  ).then((failed) => new Set(failed));
  stale.forEach((r, i) => {
    const done = sent.then((failed) => {
      if (failed.has(i)) throw new Error(`the ${backlog} queue refused a job handed on from ${lane}`);
    });
    done.catch(() => undefined); // its record's handler reports it
    handed.set(r.messageId, done);
  });
  recordBacklogged(stale.length);
  logger.debug('handed jobs on to the backlog', { lane, backlog, count: stale.length });
  return { run: records.filter((r) => !handed.has(r.messageId)), handed };
}
