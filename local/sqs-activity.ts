/**
 * Lambda's SQS pollers long-poll: a message sent to an idle queue is picked up at once. Locally the
 * pollers must poll without a wait (see sqs-poller.ts), so the in-process SQS server announces
 * every send here, by queue, and that queue's idle pollers wake up instead of sleeping out their
 * backoff. Only that queue's: a long poll waits on its own queue, and waking every lane's loops on
 * every send cost the handlers' one process a receive per loop per send (a cohort's first reads,
 * each queueing a restamp, slowed every read in the mix).
 */
import { EventEmitter } from 'node:events';

const sends = new EventEmitter();
sends.setMaxListeners(0);

/** The queue's name: the last segment of its URL (the server's and the pollers' URLs agree on it). */
const queueNameOf = (queueUrl: string): string => queueUrl.slice(queueUrl.lastIndexOf('/') + 1);

export function announceSend(queueUrl: string): void {
  sends.emit(queueNameOf(queueUrl));
}

/**
 * Sleeps `ms`, or less if a message is sent to `queueUrl` meanwhile — or if `nudges` (when given)
 * emits 'nudge': a poll loop's siblings wake it when they find messages no send announced (a retry
 * or a delayed job that has become visible).
 */
export function sleepUntilSend(ms: number, queueUrl: string, nudges?: EventEmitter): Promise<void> {
  const queue = queueNameOf(queueUrl);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sends.off(queue, done);
      nudges?.off('nudge', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    sends.once(queue, done);
    nudges?.once('nudge', done);
  });
}
