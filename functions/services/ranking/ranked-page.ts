/** What GET /feeds/{feedId}/activities answers, for a ranking and for a generator alike. */
import type { Activity } from '../../model/activity.js';

export type RankedItem = Activity & {
  /** A ranking's score (a generator feed has none: its order is the generator's). */
  score?: number;
  variables?: Record<string, number>;
  /** A generator's reason for the item, as it sent it. */
  reason?: Record<string, unknown>;
};

export interface RankedPage {
  readonly items: RankedItem[];
  readonly next: string | null;
  readonly filtered: number;
}
