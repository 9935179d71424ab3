/** A running event-source poller. */
export interface Poller {
  readonly id: string;
  stop(): Promise<void>;
}
