/** A running event-source poller. */
export interface Poller {
  readonly id: string;
  stop(): Promise<void>;
  /**
   * Stops taking new batches (the one in flight finishes) until the returned function is called:
   * tests hold one lane still to show that the others do not wait for it. SQS pollers only.
   */
  pause?(): () => void;
}
