/**
 * The tags a post carries (model/tags.ts): checked before anything is written, so 11 tags are a
 * 400 that leaves no trace.
 */
import { ValidationError } from '../../model/domain-errors.js';
import { MAX_TAGS, parseTag, tagKeyOf, tagsOf } from '../../model/tags.js';

/** A post's tags as stored (as first written), or a 400 naming `field` (e.g. `body`, `body.activities.3`). */
export function tagsOfPost(input: { readonly content?: string; readonly tags?: readonly string[] }, field = 'body'): string[] {
  const bad = (input.tags ?? []).findIndex((t) => parseTag(t) === undefined);
  if (bad >= 0)
    throw new ValidationError('Not a tag.', [
      { field: `${field}.tags.${bad}`, message: 'letters, digits and _ (not digits only), at most 100, with or without a leading #' },
    ]);
  const tags = tagsOf(input.content, input.tags);
  if (tags.length > MAX_TAGS) {
    throw new ValidationError('Too many tags.', [
      { field: `${field}.tags`, message: `at most ${MAX_TAGS} distinct tags, counting the #hashtags of content (found ${tags.length})` },
    ]);
  }
  return tags;
}

/**
 * An edit's tags: the new content's #hashtags, and those the post named apart from its content
 * (its `tags` array) kept — or a 400 before anything is written, as for a post.
 */
export function editedTags(before: { readonly content?: unknown; readonly tags?: unknown }, content: string | undefined): string[] {
  const inContent = new Set(tagsOf(typeof before.content === 'string' ? before.content : undefined).map(tagKeyOf));
  const stored = Array.isArray(before.tags) ? (before.tags as string[]) : [];
  return tagsOfPost({ content, tags: stored.filter((t) => !inContent.has(tagKeyOf(t))) });
}
