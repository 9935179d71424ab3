/**
 * Partition-key prefixes of the feed table, declared once: the key model (functions/model/) builds
 * keys from them and the stream consumers' event filters (event-sources.ts) match on them, so the
 * two cannot drift apart. Everything else about a key is the key model's own business.
 */
export const feedPartitionPrefix = {
  /** An author's timeline of originals. */
  timeline: 't#',
  /** A user's home feed of copies (and its head item). */
  homeFeed: 'f#',
  /** An activity's comments. */
  comments: 'c#',
  /** An activity's reaction counter. */
  counter: 'x#',
  /** An edited activity's earlier versions. */
  history: 'v#',
  /** A hashtag's feed (entries of the posts that carry it). */
  tag: 'g#',
} as const;
