/**
 * Reading mutes and blocks where other features must respect them (follow, reactions, reads,
 * notifications), and the settle delay of the cleanups they start. Placing and lifting them:
 * services/mutes-blocks.ts.
 */
import { setting } from '../../lib/defs/config.js';
import { NotFoundError } from '../model/domain-errors.js';
import { controlId, standingControlKeys, standingControls, standingFrom } from '../stores/controls-store.js';
import type { Item } from '../platform/dynamo/query.js';

/** CONTROL_SETTLE in seconds (see lib/defs/config.ts). */
export const controlSettleSeconds = () => setting('CONTROL_SETTLE');

/** `blocker` blocked `user`. */
export async function hasBlocked(blocker: string, user: string): Promise<boolean> {
  return (await standingControls([{ kind: 'block', user: blocker, target: user }])).standing.size > 0;
}

/** How a notification's recipient stands to its actors (services/notifications/fold-events.ts). */
export interface Audience {
  /** Whose actions must not notify the recipient: muted or blocked — all of them once the recipient is being erased. */
  readonly silenced: ReadonlySet<string>;
  /** Those the recipient follows (asked for only when `withFollows`): the others are strangers to them. */
  readonly followed: ReadonlySet<string>;
}

/** What an audience read asks: per actor the recipient's mute and block check entries, the follow edge (with `withFollows`), the erase mark. */
function audienceQuery(recipient: string, actors: readonly string[], withFollows: boolean) {
  const unique = [...new Set(actors)];
  return {
    unique,
    keys: unique.flatMap((a) => [
      { kind: 'mute' as const, user: recipient, target: a },
      { kind: 'block' as const, user: recipient, target: a },
    ]),
    opts: { erasing: recipient, ...(withFollows ? { follower: recipient, followees: unique } : {}) },
  };
}

/** The keys audienceFrom needs: the notify batch reads every recipient's in one BatchGet. */
export function audienceKeys(recipient: string, actors: readonly string[], withFollows: boolean): Item[] {
  const q = audienceQuery(recipient, actors, withFollows);
  return standingControlKeys(q.keys, q.opts);
}

/**
 * How `recipient` stands to `actors`, from a strongly consistent read of (at least) audienceKeys:
 * per actor the recipient's mute and block check entries, with `withFollows` the recipient's follow
 * edge to them (1 read unit each), and the recipient's erase mark (nothing may recreate their feed).
 */
export function audienceFrom(found: readonly Item[], recipient: string, actors: readonly string[], withFollows: boolean): Audience {
  const q = audienceQuery(recipient, actors, withFollows);
  const { standing, erased, following } = standingFrom(found, q.keys, q.opts);
  const silenced = erased
    ? new Set(q.unique)
    : new Set(q.unique.filter((a) => standing.has(controlId('mute', recipient, a)) || standing.has(controlId('block', recipient, a))));
  return { silenced, followed: following };
}

/** 404 for a user the owner blocked: to them the owner's posts do not exist. */
export async function assertNotHiddenFrom(owner: string, viewer: string): Promise<void> {
  if (owner !== viewer && (await hasBlocked(owner, viewer))) throw new NotFoundError('No such activity.');
}
