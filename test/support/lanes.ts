/**
 * Requests whose order proves nothing, a few at a time: `run` over every item in at most `lanes`
 * concurrent lanes (a test's sequential loop costs a round trip per item; all at once would only
 * queue them behind each other on the local stack).
 */
export async function inLanes<T>(items: readonly T[], lanes: number, run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
}
