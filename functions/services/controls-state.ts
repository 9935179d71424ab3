/**
 * Reading mutes and blocks where other features must respect them (follow, reactions, reads,
 * notifications), and the settle delay of the cleanups they start. Placing and lifting them:
 * services/controls.ts.
 */
import { readConfig } from '../../lib/defs/config.js';
import { NotFoundError } from '../model/errors.js';
import { controlId, standingControls } from '../stores/controls-store.js';

let settle: number | undefined;
/** CONTROL_SETTLE in seconds (see lib/defs/config.ts). */
export const controlSettleSeconds = () => (settle ??= readConfig('CONTROL_SETTLE'));

export async function hasMuted(user: string, target: string): Promise<boolean> {
  return (await standingControls([{ kind: 'mute', user, target }])).standing.size > 0;
}

/** `blocker` blocked `user`. */
export async function hasBlocked(blocker: string, user: string): Promise<boolean> {
  return (await standingControls([{ kind: 'block', user: blocker, target: user }])).standing.size > 0;
}

/**
 * Of `actors`, those whose actions must not notify `recipient` (one BatchGet): the ones they muted
 * or blocked — and all of them once the recipient is being erased (nothing may recreate their feed).
 */
export async function silencedFor(recipient: string, actors: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(actors)];
  const { standing, erased } = await standingControls(
    unique.flatMap((a) => [{ kind: 'mute' as const, user: recipient, target: a }, { kind: 'block' as const, user: recipient, target: a }]),
    recipient,
  );
  if (erased) return new Set(unique);
  return new Set(unique.filter((a) => standing.has(controlId('mute', recipient, a)) || standing.has(controlId('block', recipient, a))));
}

/** 404 for a user the owner blocked: to them the owner's posts do not exist. */
export async function assertNotHiddenFrom(owner: string, viewer: string): Promise<void> {
  if (owner !== viewer && (await hasBlocked(owner, viewer))) throw new NotFoundError('No such activity.');
}
