/**
 * How every ranked page — a ranking's snapshot slice or a generator's skeleton — becomes posts: one
 * BatchGet of the originals (their current version), leaving out ids that name nothing, deleted or
 * expired posts, and the posts of authors the reader muted or blocked or who blocked them. Nothing
 * is read to refill what was left out.
 */
import { type Activity, toActivity } from '../../model/activity.js';
import { parseActivityId } from '../../model/activity-id.js';
import { isVisibleOriginal } from '../../model/timeline-item.js';
import { getOriginals } from '../../stores/feed-store.js';

/** Per id (undefined: none asked), the post the reader may see, or undefined. */
export async function visibleActivities(ids: readonly (string | undefined)[], hidden: ReadonlySet<string>): Promise<(Activity | undefined)[]> {
  const keys = ids.map((id) => (id === undefined ? undefined : parseActivityId(id)));
  const wanted = keys.flatMap((key, i) => (key !== undefined && !hidden.has(key.actor) ? [{ at: i, author: key.actor, rk: key.rk }] : []));
  const originals = await getOriginals(wanted);
  const nowSeconds = Math.floor(Date.now() / 1000);
  const out: (Activity | undefined)[] = ids.map(() => undefined);
  wanted.forEach((w, i) => {
    const original = originals[i];
    if (isVisibleOriginal(original, nowSeconds)) out[w.at] = toActivity(original!);
  });
  return out;
}
