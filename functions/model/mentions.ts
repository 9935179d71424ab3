/**
 * `@userId` mentions in an activity's `content`. A mention is `@` at the start or after a space,
 * followed by the user id: characters other than whitespace and `@,;:!?()[]{}<>"'`, trailing
 * periods dropped (`@bob.` at the end of a sentence names bob). Ids that break the user-id rule
 * are ignored; at most MAX_MENTIONS distinct users are notified, in order of appearance.
 */
import { isValidUserId } from './user-id.js';

export const MAX_MENTIONS = 20;
const MENTION = /(?:^|\s)@([^\s@,;:!?()[\]{}<>"']+)/gu;

export function mentionsIn(content: string | undefined): string[] {
  if (!content) return [];
  const found = new Set<string>();
  for (const match of content.matchAll(MENTION)) {
    const id = match[1]!.replace(/\.+$/, '');
    if (id && isValidUserId(id)) found.add(id);
    if (found.size >= MAX_MENTIONS) break;
  }
  return [...found];
}
