/**
 * The fields an edit may change, listed once: the edit's merge patch reads them from the original,
 * its conditional update sets or removes them on the original, every copy and every tag-feed entry
 * (stores/feed-store.ts editExpression), and the copies' state is built from them. `tags` is not
 * patched: it follows from the edited content (or is given), but it is set and removed with the rest.
 */
import { type AttributeValue, toActivity } from './activity.js';
import type { Same } from './same-type.js';

export const EDITABLE_FIELDS = ['content', 'object', 'attributes', 'tags'] as const;

/** The editable fields as they stand (absent = not set). */
export interface EditableFields {
  readonly content?: string;
  readonly object?: string;
  readonly attributes?: Readonly<Record<string, AttributeValue>>;
  readonly tags?: readonly string[];
}

/** What an edit leaves on an original and its copies: the fields, the version and when. */
export interface EditedState extends EditableFields {
  readonly version: number;
  readonly editedAt: string;
}

// The list and the type name the same fields: adding one to either and not the other fails to compile.
const listed: Same<(typeof EDITABLE_FIELDS)[number], keyof EditableFields> = true;
void listed;

/** The editable fields of a stored item (an original or a copy). */
export function editableOf(item: Readonly<Record<string, unknown>>): EditableFields {
  const a = toActivity(item);
  return {
    content: a.content ?? undefined,
    object: a.object ?? undefined,
    attributes: a.attributes ?? undefined,
    ...(a.tags?.length ? { tags: a.tags } : {}),
  };
}
