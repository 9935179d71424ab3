/**
 * Feed definitions (PUT/GET/DELETE /feeds/{feedId}, GET /feeds). Ownership: a definition records
 * who wrote it. A user's PUT writes a private feed only they may read, replace or delete; an
 * admin's PUT writes a shared feed every user may read (and only admins replace or delete). A
 * feed id is taken by whoever wrote it first: a user's PUT on another's id is a 403 and changes
 * nothing, and another user's private feed does not exist to others (404). A user keeps at most
 * MAX_FEEDS_PER_USER feeds. A definition holds no reader data: reading it ranks the reader's own
 * candidates (candidates.ts), so a shared feed shows each reader only what they may see.
 */
import { ConflictError, ForbiddenError, NotFoundError, UnavailableError } from '../../model/domain-errors.js';
import { isFeedListSortKey, SHARED_OWNER } from '../../model/ranked-feed.js';
import { definitionPage, deleteDefinition, getDefinition, putDefinition, type StoredDefinition } from '../../stores/ranked-feed-store.js';
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
}

const view = (d: StoredDefinition): FeedDefinitionView => ({
  feedId: d.feedId,
  owner: d.owner,
  shared: d.shared,
  updatedAt: d.updatedAt,
  definition: JSON.parse(d.body) as Record<string, unknown>,
});

const mayRead = (d: StoredDefinition, who: Requester) => d.shared || d.owner === who.userId;

/** The definition `who` may read, or 404 (also for another user's private feed: it does not exist to them). */
export async function readableDefinition(feedId: string, who: Requester): Promise<StoredDefinition> {
  const d = await getDefinition(feedId);
  if (d === undefined || !mayRead(d, who)) throw new NotFoundError('No such feed.');
  return d;
}

export async function putFeed(who: Requester, feedId: string, definition: unknown): Promise<FeedDefinitionView> {
  const held = await getDefinition(feedId);
  if (held !== undefined && (who.admin ? !held.shared : held.shared || held.owner !== who.userId)) {
    throw new ForbiddenError('This feed id belongs to someone else.');
  }
  if (held === undefined && !who.admin) {
    const own = await definitionPage(who.userId, MAX_FEEDS_PER_USER);
    if (own.items.length >= MAX_FEEDS_PER_USER) throw new ConflictError(`A user keeps at most ${MAX_FEEDS_PER_USER} feeds: delete one first.`);
  }
  const stored: StoredDefinition = { feedId, owner: who.userId, shared: who.admin, body: JSON.stringify(definition), updatedAt: new Date().toISOString() };
  const out = await putDefinition(stored);
  if (out === 'taken') throw new ForbiddenError('This feed id belongs to someone else.');
  if (out === 'conflict') throw new UnavailableError('The feed was being written by another request: retry.', 1);
  return view(stored);
}

export const getFeed = async (who: Requester, feedId: string): Promise<FeedDefinitionView> => view(await readableDefinition(feedId, who));

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
