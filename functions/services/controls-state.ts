/**
 * Reading mutes and blocks where other features must respect them (follow, reactions, reads,
 * notifications), and the settle delay of the cleanups they start. Placing and lifting them:
 * services/controls.ts.
 */
import { setting } from '../../lib/defs/config.js';
import { NotFoundError } from '../model/errors.js';
import { controlId, standingControls } from '../stores/controls-store.js';

/** CONTROL_SETTLE in seconds (see lib/defs/config.ts). */
export const controlSettleSeconds = () => setting('CONTROL_SETTLE');

export async function hasMuted(user: string, target: string): Promise<boolean> {
  return (await standingControls([{ kind: 'mute', user, target }])).standing.size > 0;
}

/** `blocker` blocked `user`. */
export async function hasBlocked(blocker: string, user: string): Promise<boolean> {
  return (await standingControls([{ kind: 'block', user: blocker, target: user }])).standing.size > 0;
}

/** How a notification's recipient stands to its actors (services/notifications/apply.ts). */
export interface Audience {
  /** Whose actions must not notify the recipient: muted or blocked — all of them once the recipient is being erased. */
  readonly silenced: ReadonlySet<string>;
  /** Those the recipient follows (asked for only when `withFollows`): the others are strangers to them. */
  readonly followed: ReadonlySet<string>;
}

/**
 * How `recipient` stands to `actors`, in one BatchGet: per actor the recipient's mute and block
 * check entries, and with `withFollows` the recipient's follow edge to them (1 read unit each,
 * strongly consistent), plus the recipient's erase mark (nothing may recreate their feed).
 */
export async function audienceOf(recipient: string, actors: readonly string[], withFollows: boolean): Promise<Audience> {
  const unique = [...new Set(actors)];
  const { standing, erased, following } = await standingControls(
    unique.flatMap((a) => [{ kind: 'mute' as const, user: recipient, target: a }, { kind: 'block' as const, user: recipient, target: a }]),
    { erasing: recipient, ...(withFollows ? { follower: recipient, followees: unique } : {}) },
  );
  const silenced = erased ? new Set(unique) : new Set(unique.filter((a) => standing.has(controlId('mute', recipient, a)) || standing.has(controlId('block', recipient, a))));
  return { silenced, followed: following };
}

/** 404 for a user the owner blocked: to them the owner's posts do not exist. */
export async function assertNotHiddenFrom(owner: string, viewer: string): Promise<void> {
  if (owner !== viewer && (await hasBlocked(owner, viewer))) throw new NotFoundError('No such activity.');
}
