/**
 * A newest-first list of activities with the API's two paging directions: "Older" asks for the
 * page before the last item (`before=<lastRangeKey>`), "Newer" catches up above the first one
 * (`since=<items[0].rangeKey>`, repeated while pages come back full, as the README says).
 * The feed and timeline views share it; each passes the one call that reads its list, and the
 * one that edits (the user's own rows get an Edit button: edit-form.ts).
 */
import type { Activity } from '@tickfeed/client';
import { ago, busy, h, replace } from './dom.js';
import { editControl, type SaveEdit } from './edit-form.js';
import { hrefOf } from './links.js';

export interface ActivityPage {
  items: Activity[];
  lastRangeKey: string | null;
}

/** Reads one page: `before` or `since` (never both), and the page size. */
export type ReadPage = (query: { limit: number; before?: string; since?: string }) => Promise<ActivityPage>;

export interface ActivityList {
  readonly element: HTMLElement;
  /** Loads the first page, replacing what is shown. */
  reload(): Promise<void>;
  /** Prepends what is newer than the top item; returns how many arrived. */
  newer(): Promise<number>;
  /**
   * Shows an item pushed live in its place by range key: on top when newer than everything shown,
   * among the items when a late copy lands inside their range; one below them is left to "Older"
   * while older pages remain. Once per id; returns whether it is shown now.
   */
  insert(item: Activity): boolean;
  /** Shows an edited item in its row, if shown at an older version (an id not shown is ignored). */
  update(item: Activity): void;
  /** Takes an item away (an id not shown is ignored). */
  remove(id: string): void;
  /** What is shown: the newest and oldest range keys and the ids (a realtime catch-up's starting point). */
  shown(): { newest?: string; oldest?: string; ids: string[] };
}

export function activityList(opts: { user: string; limit: number; read: ReadPage; empty: string; edit?: SaveEdit }): ActivityList {
  const { user, limit, read } = opts;
  const list = h('ol', { class: 'activities', 'data-testid': 'activities' });
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const newerButton = h('button', { type: 'button', 'data-testid': 'newer' }, 'Newer');
  const olderButton = h('button', { type: 'button', 'data-testid': 'older' }, 'Older');
  let top: string | undefined; // rangeKey of the newest item shown
  let cursor: string | null = null; // lastRangeKey of the last page read

  const rows = () => [...list.children] as HTMLElement[];
  const update = (item: Activity) => {
    const row = rows().find((r) => r.dataset.id === item.id);
    if (row && Number(row.dataset.version) < item.version) row.replaceWith(rowOf(item));
  };
  // The user's own rows can be edited; an edit shows in place (and again, harmlessly, when pushed).
  const rowOf = (a: Activity): HTMLLIElement => {
    const row = activityRow(a, user);
    if (opts.edit && a.actor === user) row.append(editControl(a, opts.edit, update));
    return row;
  };
  const isShown = (id: string) => rows().some((r) => r.dataset.id === id);

  const show = (where: 'start' | 'end', all: Activity[]) => {
    // A live push may have shown some already.
    const items = all.filter((a) => !isShown(a.id));
    const added = items.map(rowOf);
    if (where === 'start') list.prepend(...added);
    else list.append(...added);
    if (items.length && (where === 'start' || top === undefined)) top = items[0]!.rangeKey;
    olderButton.hidden = cursor === null;
    if (!list.childElementCount) replace(status, h('p', { class: 'muted' }, opts.empty));
  };

  const reload = async () => {
    const page = await read({ limit });
    list.replaceChildren();
    top = undefined;
    cursor = page.lastRangeKey;
    replace(status);
    show('end', page.items);
  };

  const newer = async () => {
    if (top === undefined) {
      await reload();
      return list.childElementCount;
    }
    // `since` answers the `limit` items closest above the key, newest first: walk up until a page is not full.
    const arrived: Activity[] = [];
    for (let since = top; ;) {
      const page = await read({ limit, since });
      arrived.unshift(...page.items);
      if (page.items.length < limit || !page.items.length) break;
      since = page.items[0]!.rangeKey;
    }
    if (arrived.length) replace(status);
    show('start', arrived);
    return arrived.length;
  };

  newerButton.addEventListener('click', () =>
    busy(newerButton, status, async () => {
      const n = await newer();
      if (n === 0) replace(status, h('p', { class: 'muted' }, 'Nothing newer.'));
    }),
  );
  olderButton.addEventListener('click', () =>
    busy(olderButton, status, async () => {
      if (cursor === null) return;
      const page = await read({ limit, before: cursor });
      cursor = page.lastRangeKey;
      show('end', page.items);
    }),
  );

  const insert = (item: Activity) => {
    if (isShown(item.id)) return false;
    const rk = BigInt(item.rangeKey);
    const next = rows().find((r) => BigInt(r.dataset.rk!) > rk); // the first older item shown
    if (!next && cursor !== null) return false;
    const row = rowOf(item);
    if (next) list.insertBefore(row, next);
    else list.append(row);
    if (top === undefined || rk < BigInt(top)) top = item.rangeKey;
    replace(status);
    return true;
  };
  const remove = (id: string) =>
    rows()
      .find((r) => r.dataset.id === id)
      ?.remove();
  const shown = () => {
    const all = rows();
    return { newest: top, oldest: all.at(-1)?.dataset.rk, ids: all.map((r) => r.dataset.id!) };
  };

  const element = h('section', { class: 'activity-list' }, h('div', { class: 'toolbar' }, newerButton), status, list, olderButton);
  olderButton.hidden = true;
  return { element, reload, newer, insert, update, remove, shown };
}

/** One activity's row (the ranked view adds its score and explanation to it). */
export function activityRow(a: Activity, user: string): HTMLLIElement {
  return h(
    'li',
    { class: 'activity', 'data-id': a.id, 'data-rk': a.rangeKey, 'data-version': a.version },
    h(
      'div',
      { class: 'meta' },
      h('a', { class: 'actor', href: hrefOf({ user, view: 'timeline', of: a.actor }) }, a.actor),
      ' ',
      h('span', { class: 'verb' }, a.verb),
      a.object ? h('span', { class: 'object' }, ` ${a.object}`) : null,
      ' · ',
      h('time', { datetime: a.time, title: a.time }, ago(a.time)),
      a.editedAt ? h('span', { class: 'muted', title: a.editedAt, 'data-testid': 'edited' }, ' · edited') : null,
    ),
    a.content ? h('p', { class: 'content' }, a.content) : null,
    a.tags?.length
      ? h('p', { class: 'tags' }, ...a.tags.flatMap((tag) => [h('a', { href: hrefOf({ user, view: 'tags', params: { tag } }) }, `#${tag}`), ' ']))
      : null,
  );
}
