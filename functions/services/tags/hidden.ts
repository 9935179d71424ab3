/**
 * Mutes and blocks as tags see them. A tag brings strangers' posts, so both directions count: a
 * reader does not see (in a tag's feed, or copied or merged into their home feed through a tag)
 * the posts of authors they muted or blocked, nor of authors who blocked them. One Query of one
 * control partition answers either side (model/user-controls.ts): the reader's for a page, the
 * author's for a fan-out page.
 */
import { mergedShows } from '../../model/copy-rule.js';
import { kindOfControlSk, otherOfControlSk } from '../../model/user-controls.js';
import { controlSortKeys } from '../../stores/controls-store.js';
import type { SourceResult } from '../feed-merge.js';

/** How a control partition is read: strongly consistent where a stale answer would take a copy for good. */
interface ReadOpts {
  readonly consistent?: boolean;
}

/**
 * Authors whose posts `reader` must not be shown: muted or blocked by them, or who blocked them.
 * A remover asks `consistent`: a stale read still showing a lifted mute would take a copy that
 * nothing writes back. A writer or a page may read a moment stale: a control's cleanup, and a lifted
 * one's restore, run again CONTROL_SETTLE later (mutes-blocks.ts).
 */
export async function hiddenAuthorsOf(reader: string, opts: ReadOpts = {}): Promise<Set<string>> {
  return othersOf(await controlSortKeys(reader, opts), ['mute', 'block', 'blockedBy']);
}

/** Users who must not get `author`'s posts through a tag: who muted or blocked them, or whom they blocked (`consistent` as above). */
export async function shieldedFrom(author: string, opts: ReadOpts = {}): Promise<Set<string>> {
  return othersOf(await controlSortKeys(author, opts), ['mutedBy', 'blockedBy', 'block']);
}

function othersOf(sortKeys: readonly string[], kinds: readonly string[]): Set<string> {
  return new Set(sortKeys.filter((sk) => kinds.includes(kindOfControlSk(sk))).map(otherOfControlSk));
}

/** `reader`'s page source without what the copy rule hides from them (its frontier stays where the Query stopped: no gap). */
export function without(source: SourceResult, reader: string, hidden: ReadonlySet<string>): SourceResult {
  if (hidden.size === 0) return source;
  return { ...source, items: source.items.filter((i) => mergedShows(reader, String(i.actor), hidden.has(String(i.actor)))) };
}
