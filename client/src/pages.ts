/**
 * One page of a list, reduced to its items and the cursor that asks for the next one (a feed's
 * `lastRangeKey`, any other list's `next`).
 */
export interface PageOf<T> {
  readonly items: readonly T[];
  /** Pass back to fetch the next page; null or absent once nothing more remains. */
  readonly cursor: string | null | undefined;
}

/** Fetches one page: the first when `cursor` is undefined, else the one after that cursor. */
export type FetchPage<T> = (cursor: string | undefined) => Promise<PageOf<T>>;

/**
 * Yields every item of a cursor-paged list, fetching a page only when the previous one is used
 * up, and stops when a page comes back without a cursor. Errors from `fetchPage` propagate.
 *
 * @example
 * for await (const activity of paginate((before) => fetchFeedPage(before))) render(activity);
 */
export async function* paginate<T>(fetchPage: FetchPage<T>, from?: string): AsyncGenerator<T, void, undefined> {
  let cursor = from;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (page.cursor === null || page.cursor === undefined) return;
    // A server that hands back the cursor it was given would have the loop fetch forever.
    if (page.cursor === cursor) throw new Error(`the server returned the same cursor twice: ${cursor}`);
    cursor = page.cursor;
  }
}
