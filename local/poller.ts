/** A running event-source poller. */
export interface Poller {
  readonly id: string;
  stop(): Promise<void>;
  /**
   * Stops taking new batches until the returned function is called; resolves once the receives and
   * batches under way have finished. Tests hold one lane still to show that the others do not wait
   * for it. SQS pollers only.
   */
  pause?(): Promise<() => void>;
}
