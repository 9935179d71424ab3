/**
 * An activity: the fields a post carries (stored the same in the author's timeline and in every
 * home-feed copy) and its wire shape. Pure.
 */
export type AttributeValue = number | string | boolean;

/** Attributes an activity may carry: a post's, and an edited one's after its patch. */
export const MAX_ATTRIBUTES = 20;

/** What a client posts, validated (functions/http/schemas.ts). */
export interface ActivityInput {
  readonly verb: string;
  readonly object?: string;
  readonly content?: string;
  readonly attributes?: Record<string, AttributeValue>;
  readonly foreignId?: string;
  /** The activity's own time (RFC 3339), if the client gave one; never its position. */
  readonly time?: string;
  /** Post as this user instead of the caller (admin tokens only: services/access.ts). */
  readonly actor?: string;
  /** Users to notify explicitly (≤ 20), with the activity's verb and object. */
  readonly to?: readonly string[];
  /** Tags beside the content's #hashtags (model/tags.ts); as stored, all of the activity's tags. */
  readonly tags?: readonly string[];
}

/** The wire shape. Absent optional fields are `null`. */
export interface Activity {
  id: string;
  actor: string;
  verb: string;
  object: string | null;
  content: string | null;
  attributes: Record<string, AttributeValue> | null;
  foreignId: string | null;
  /** The users the post was addressed to (each got a notification). */
  to: string[] | null;
  /** Its tags (the content's #hashtags and the post's `tags`), each as first written. */
  tags: string[] | null;
  /** The activity's own time: the client's `time`, else when it was posted. */
  time: string;
  /** Where it sits in every feed: MAX − server ticks at posting, as a decimal string. */
  rangeKey: string;
  /** 1 for a post never edited; each edit that changes something adds one (its ETag). */
  version: number;
  /** When the last edit was made (RFC 3339, server clock); null until edited. */
  editedAt: string | null;
}

/**
 * An edit (PATCH /activities/{id}): a JSON Merge Patch (RFC 7396) of the fields an author may
 * change. `null` removes a field (or, inside `attributes`, one attribute); absent leaves it.
 */
export interface ActivityPatch {
  readonly content?: string | null;
  readonly object?: string | null;
  readonly attributes?: Readonly<Record<string, AttributeValue | null>> | null;
}

/** Numbers read with `wrapNumbers` arrive as NumberValue (a string inside). */
const num = (v: unknown): number => Number(String(v));
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Wire shape of a stored timeline item or home-feed copy (both carry the same fields). */
export function toActivity(item: { readonly [field: string]: unknown }): Activity {
  const attrs = item.attributes as Record<string, unknown> | undefined;
  return {
    id: String(item.id),
    actor: String(item.actor),
    verb: String(item.verb),
    object: str(item.object),
    content: str(item.content),
    attributes: attrs ? Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, typeof v === 'string' || typeof v === 'boolean' ? v : num(v)])) : null,
    foreignId: str(item.foreignId),
    to: Array.isArray(item.to) ? (item.to as unknown[]).map(String) : null,
    tags: Array.isArray(item.tags) ? (item.tags as unknown[]).map(String) : null,
    time: String(item.time),
    rangeKey: String(item.rk),
    version: item.version === undefined ? 1 : num(item.version),
    editedAt: str(item.editedAt),
  };
}
