/**
 * Who may do what. Two kinds of caller: end users, acting as themselves, and tokens with the
 * `tickfeed/admin` scope (the product's backend), passed in as `admin`. Refusals are
 * ForbiddenError (403 problem+json at the edge), raised before anything is read or written.
 */
import { ADMIN_SCOPE } from '../../lib/defs/scopes.js';
import { ForbiddenError } from '../model/domain-errors.js';

/** Business metrics and the like: admin tokens only. */
export function requireAdmin(admin: boolean, what: string): void {
  if (!admin) throw new ForbiddenError(`${what} requires a token with the ${ADMIN_SCOPE} scope.`);
}

/** A user's own data: that user, or an admin token. */
export function requireSelfOrAdmin(caller: string, admin: boolean, userId: string, what: string): void {
  if (caller !== userId && !admin) throw new ForbiddenError(`Another user's ${what} requires a token with the ${ADMIN_SCOPE} scope.`);
}

/**
 * The actor a post is made as: the caller, or the body's `actor` (admin tokens only — without the
 * scope the field itself is refused). A protected verb needs an admin token too.
 */
export function postingActor(
  caller: string,
  admin: boolean,
  input: { readonly verb: string; readonly actor?: string },
  protectedVerbs: ReadonlySet<string>,
): string {
  if (input.actor !== undefined && !admin) {
    throw new ForbiddenError(`Only a token with the ${ADMIN_SCOPE} scope may post as an actor (body.actor).`);
  }
  if (!admin && protectedVerbs.has(input.verb)) {
    throw new ForbiddenError(`The verb "${input.verb}" is protected: only a token with the ${ADMIN_SCOPE} scope may post it.`);
  }
  return input.actor ?? caller;
}
