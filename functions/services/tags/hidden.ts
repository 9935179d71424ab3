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

/** Authors whose posts `reader` must not be shown: muted or blocked by them, or who blocked them. */
export async function hiddenAuthorsOf(reader: string): Promise<Set<string>> {
  return othersOf(await controlSortKeys(reader), ['mute', 'block', 'blockedBy']);
}

/** Users who must not get `author`'s posts through a tag: who muted or blocked them, or whom they blocked. */
export async function shieldedFrom(author: string): Promise<Set<string>> {
  return othersOf(await controlSortKeys(author), ['mutedBy', 'blockedBy', 'block']);
}

function othersOf(sortKeys: readonly string[], kinds: readonly string[]): Set<string> {
  return new Set(sortKeys.filter((sk) => kinds.includes(kindOfControlSk(sk))).map(otherOfControlSk));
}

/** `reader`'s page source without what the copy rule hides from them (its frontier stays where the Query stopped: no gap). */
export function without(source: SourceResult, reader: string, hidden: ReadonlySet<string>): SourceResult {
  if (hidden.size === 0) return source;
  return { ...source, items: source.items.filter((i) => mergedShows(reader, String(i.actor), hidden.has(String(i.actor)))) };
}
