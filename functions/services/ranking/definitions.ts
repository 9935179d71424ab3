/**
 * Feed definitions (PUT/GET/DELETE /feeds/{feedId}, GET /feeds). Ownership: a definition records
 * who wrote it. A user's PUT writes a private feed only they may read, replace or delete; an
 * admin's PUT writes a shared feed every user may read (and only admins replace or delete). A
 * feed id is taken by whoever wrote it first: a user's PUT on another's id is a 403 and changes
 * nothing, and another user's private feed does not exist to others (404). A user keeps at most
 * MAX_FEEDS_PER_USER feeds. A definition holds no reader data: reading it ranks the reader's own
 * candidates (candidates.ts), so a shared feed shows each reader only what they may see.
 *
 * A generator feed (`generator`: an external URL tickfeed calls, generator-feed.ts) only an admin
 * may define: its URL is called from inside the deployment on every reader's behalf, so a user
 * aiming it at an internal address would be a server-side request forgery. Its PUT answers, once,
 * the secret that signs the tokens the generator receives (generator-token.ts); each PUT issues a
 * new one.
 */
import { setting } from '../../../lib/defs/config.js';
import { ConflictError, ForbiddenError, NotFoundError, UnavailableError, ValidationError } from '../../model/domain-errors.js';
import { generatorUrlProblem } from '../../model/feed-generator.js';
import { isFeedListSortKey, SHARED_OWNER } from '../../model/ranked-feed.js';
import { definitionPage, deleteDefinition, getDefinition, putDefinition, type NewDefinition, type StoredDefinition } from '../../stores/ranked-feed-store.js';
import { newGeneratorSecret } from './generator-token.js';
import { afterCursor, type ListPage, type ListRequest, listPageOf } from '../list-page.js';

export const MAX_FEEDS_PER_USER = 20;

export interface Requester {
  readonly userId: string;
  readonly admin: boolean;
}

export interface FeedDefinitionView {
  readonly feedId: string;
  readonly owner: string;
  readonly shared: boolean;
  readonly updatedAt: string;
  readonly definition: Record<string, unknown>;
  /** Only in a generator feed's PUT answer: the secret its reader tokens are signed with. */
  readonly generatorSecret?: string;
}

/** A definition as `who` sees it: a generator's URL (which may carry its key) only an admin does. */
function view(d: NewDefinition, who: Requester): FeedDefinitionView {
  const definition = JSON.parse(d.body) as Record<string, unknown> & { generator?: Record<string, unknown> };
  if (definition.generator !== undefined && !who.admin) {
    const { url: _hidden, ...rest } = definition.generator;
    definition.generator = rest;
  }
  return { feedId: d.feedId, owner: d.owner, shared: d.shared, updatedAt: d.updatedAt, definition };
}

const mayRead = (d: StoredDefinition, who: Requester) => d.shared || d.owner === who.userId;

/** The definition `who` may read, or 404 (also for another user's private feed: it does not exist to them). */
export async function readableDefinition(feedId: string, who: Requester): Promise<StoredDefinition> {
  const d = await getDefinition(feedId);
  if (d === undefined || !mayRead(d, who)) throw new NotFoundError('No such feed.');
  return d;
}

/** A generator definition's URL must be one tickfeed may call (model/feed-generator.ts), and only an admin may name one. */
function checkGenerator(who: Requester, definition: { generator?: { url: string } }): void {
  if (definition.generator === undefined) return;
  if (!who.admin) throw new ForbiddenError("Only an admin may define a feed generator: tickfeed calls its URL on every reader's behalf.");
  const problem = generatorUrlProblem(definition.generator.url, setting('FEED_GENERATOR_LOOPBACK'));
  if (problem !== undefined)
    throw new ValidationError(`The generator URL must be ${problem}.`, [{ field: 'body.generator.url', message: `must be ${problem}` }]);
}

export async function putFeed(who: Requester, feedId: string, definition: { generator?: { url: string } }): Promise<FeedDefinitionView> {
  checkGenerator(who, definition);
  const held = await getDefinition(feedId);
  if (held !== undefined && (who.admin ? !held.shared : held.shared || held.owner !== who.userId)) {
    throw new ForbiddenError('This feed id belongs to someone else.');
  }
  if (held === undefined && !who.admin) {
    const own = await definitionPage(who.userId, MAX_FEEDS_PER_USER);
    if (own.items.length >= MAX_FEEDS_PER_USER) throw new ConflictError(`A user keeps at most ${MAX_FEEDS_PER_USER} feeds: delete one first.`);
  }
  const stored: NewDefinition = {
    feedId,
    owner: who.userId,
    shared: who.admin,
    body: JSON.stringify(definition),
    updatedAt: new Date().toISOString(),
    ...(definition.generator !== undefined && { generatorSecret: newGeneratorSecret() }),
  };
  const out = await putDefinition(stored);
  if (out === 'taken') throw new ForbiddenError('This feed id belongs to someone else.');
  if (out === 'conflict') throw new UnavailableError('The feed was being written by another request: retry.', 1);
  return { ...view(stored, who), ...(stored.generatorSecret !== undefined && { generatorSecret: stored.generatorSecret }) };
}

export const getFeed = async (who: Requester, feedId: string): Promise<FeedDefinitionView> => view(await readableDefinition(feedId, who), who);

export async function deleteFeed(who: Requester, feedId: string): Promise<void> {
  const d = await readableDefinition(feedId, who);
  if (d.shared && !who.admin) throw new ForbiddenError('Only an admin may delete a shared feed.');
  if ((await deleteDefinition(d)) === 'changed') throw new UnavailableError('The feed was being written by another request: retry.', 1);
}

/** The caller's own feeds (an admin's: the shared ones), by feed id. */
export async function listFeeds(who: Requester, req: ListRequest): Promise<ListPage<{ feedId: string }>> {
  const page = await definitionPage(who.admin ? SHARED_OWNER : who.userId, req.limit, afterCursor(req.cursor, isFeedListSortKey));
  return listPageOf(page, (feedId) => ({ feedId }));
}
