/**
 * POST /batch/activities: up to 100 activities, each posted as its actor through posting.ts — so
 * each is an original on its actor's timeline with their own copy, fanned out by the feed table's
 * stream like any post. They are posted one after the other, in the order given: feeds order by
 * the server's clock, so the batch keeps its order there; a `time` in the past stays the
 * activity's own time (what rollups count), as a post's does.
 *
 * What would refuse one activity is checked for all before any is posted (a time too far ahead,
 * more than MAX_TAGS tags, a foreignId naming a deleted activity), so a 4xx writes nothing. A
 * foreignId posted before is an update (Stream's import semantics): its `content`, `object`,
 * `attributes` and `tags` become the ones given (an edit, services/edits/: a new version where they
 * changed, nothing written where they did not), answered 200 with its version; without foreignIds,
 * a retried batch posts its activities again. An update's tags are derived as a post's are (the
 * content's #hashtags and the item's `tags`), so the check before any post covers them: the
 * original's earlier tags do not count, and no update refuses its item after others were written.
 */
import type { Activity, ActivityPatch } from '../../model/activity.js';
import { ConflictError, ValidationError } from '../../model/domain-errors.js';
import { isVisibleOriginal } from '../../model/timeline-item.js';
import { nowTicks, ticksFromIso } from '../../platform/clock.js';
import { forEachLimit } from '../../platform/pool.js';
import { getOriginal, markedOriginal } from '../../stores/feed-store.js';
import { editActivity } from '../edits/edit.js';
import { FUTURE_TOLERANCE_MS, postActivity } from '../posting.js';
import { tagsOfPost } from '../tags/post-tags.js';

export interface ImportedActivity {
  readonly actor: string;
  readonly verb: string;
  readonly object?: string;
  readonly content?: string;
  readonly attributes?: Record<string, string | number | boolean>;
  readonly foreignId?: string;
  readonly time?: string;
  readonly tags?: readonly string[];
}

export interface ImportActivitiesResult {
  readonly items: { id: string; status: 201 | 200; version: number }[];
}

/** The patch that makes `existing`'s editable fields the imported ones (absent ones removed). */
function replacementOf(existing: Activity, input: ImportedActivity): ActivityPatch {
  const cleared = Object.fromEntries(Object.keys(existing.attributes ?? {}).map((name) => [name, null]));
  return {
    content: input.content ?? null,
    object: input.object ?? null,
    attributes: input.attributes === undefined ? null : { ...cleared, ...input.attributes },
  };
}

export async function importActivities(caller: string, activities: readonly ImportedActivity[]): Promise<ImportActivitiesResult> {
  await assertPostable(activities);
  const items: ImportActivitiesResult['items'] = [];
  for (const input of activities) {
    const { created, activity } = await postActivity(caller, true, input);
    const current = created
      ? activity
      : await editActivity({ caller, admin: true, id: activity.id, patch: replacementOf(activity, input), tags: input.tags ?? [] });
    items.push({ id: current.id, status: created ? 201 : 200, version: current.version });
  }
  return { items };
}

async function assertPostable(activities: readonly ImportedActivity[]): Promise<void> {
  activities.forEach((a, i) => tagsOfPost(a, `body.activities.${i}`)); // 400 beyond MAX_TAGS, before any post
  const latest = nowTicks() + BigInt(FUTURE_TOLERANCE_MS) * 1_000_000n;
  const ahead = activities.flatMap((a, i) => (a.time !== undefined && ticksFromIso(a.time)! > latest ? [i] : []));
  if (ahead.length) {
    throw new ValidationError(
      'time is in the future.',
      ahead.map((i) => ({
        field: `body.activities.${i}.time`,
        message: `must not be more than ${FUTURE_TOLERANCE_MS / 60_000} minutes ahead of the server's clock`,
      })),
    );
  }
  const nowSeconds = Math.floor(Date.now() / 1000);
  const gone: number[] = [];
  await forEachLimit(
    activities.flatMap((a, i) => (a.foreignId === undefined ? [] : [{ a, i }])),
    8,
    async ({ a, i }) => {
      const rk = await markedOriginal(a.actor, a.foreignId!);
      if (rk !== undefined && !isVisibleOriginal(await getOriginal(a.actor, rk), nowSeconds)) gone.push(i);
    },
  );
  if (gone.length) {
    throw new ConflictError(
      `The foreignId of activities ${gone.sort((x, y) => x - y).join(', ')} names an activity that was deleted or has expired; nothing was posted.`,
    );
  }
}
