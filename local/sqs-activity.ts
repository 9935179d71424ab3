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

/** Sleeps `ms`, or less if a message is sent meanwhile. */
export function sleepUntilSend(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sends.off('send', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    sends.once('send', done);
  });
}
