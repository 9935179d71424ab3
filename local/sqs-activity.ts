/**
 * Lambda's SQS pollers long-poll: a message sent to an idle queue is picked up at once. Locally the
 * pollers must poll without a wait (see sqs-poller.ts), so the in-process SQS server announces
 * every send here and idle pollers wake up instead of sleeping out their backoff.
 */
import { EventEmitter } from 'node:events';

const sends = new EventEmitter();
sends.setMaxListeners(0);

export function announceSend(): void {
  sends.emit('send');
}

/**
 * Sleeps `ms`, or less if a message is sent meanwhile — or if `nudges` (when given) emits 'nudge':
 * a poll loop's siblings wake it when they find messages no send announced (a retry or a delayed
 * job that has become visible).
 */
export function sleepUntilSend(ms: number, nudges?: EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sends.off('send', done);
      nudges?.off('nudge', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    sends.once('send', done);
    nudges?.once('nudge', done);
  });
}
