/**
 * JSON Merge Patch (RFC 7396) of an activity's patchable fields: `content`, `object` and
 * `attributes` (merged key by key; `null` removes). `tags` follow from the content (edit.ts). Pure:
 * the edit service applies the result.
 */
import type { ActivityPatch, AttributeValue } from '../../model/activity.js';
import { ValidationError } from '../../model/domain-errors.js';
import type { EditableFields } from '../../model/editable-fields.js';

/** What a patch changes: the editable fields but `tags`. */
type Patched = Omit<EditableFields, 'tags'>;

function mergeAttributes(current: Patched['attributes'], patch: ActivityPatch['attributes']): Patched['attributes'] {
  if (patch === undefined) return current;
  if (patch === null) return undefined;
  const merged: Record<string, AttributeValue> = { ...current };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  return Object.keys(merged).length ? merged : undefined;
}

const sameAttributes = (a: Patched['attributes'], b: Patched['attributes']): boolean => {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b ?? {}).length && ka.every((k) => b !== undefined && Object.hasOwn(b, k) && b[k] === a![k]);
};

/**
 * The fields after the patch, and whether they differ from `current`. The merged attributes obey
 * the post's limit (400 otherwise: a patch may not grow an activity past what a post may carry).
 */
export function applyPatch(current: Patched, patch: ActivityPatch, maxAttributes: number): { fields: Patched; changed: boolean } {
  const pick = (now: string | undefined, next: string | null | undefined) => (next === undefined ? now : (next ?? undefined));
  const fields: Patched = {
    content: pick(current.content, patch.content),
    object: pick(current.object, patch.object),
    attributes: mergeAttributes(current.attributes, patch.attributes),
  };
  if (Object.keys(fields.attributes ?? {}).length > maxAttributes) {
    throw new ValidationError('Invalid request body.', [{ field: 'body.attributes', message: `At most ${maxAttributes} attributes after the patch.` }]);
  }
  const changed = fields.content !== current.content || fields.object !== current.object || !sameAttributes(fields.attributes, current.attributes);
  return { fields, changed };
}
