/**
 * Rollup segments and their commit marks (stats table).
 *
 * A segment is a contiguous run of one stream shard's records that the rollups consumer aggregated
 * in a tumbling window and wrote at once: its rollup rows and activity entries all carry the
 * segment's id, derived from the shard and the sequence number of the segment's first record, so
 * writing the same segment again rewrites the same items.
 *
 * Once every item of a segment is written, a commit mark records the segment's range:
 *   pk = rollup-commit#<hash(stream ARN, shard)>   sk = <first sequence number, 40 digits>
 *   last = <last sequence number, 40 digits>
 * The newest mark of a shard is its high-water mark: records at or below it are counted. Marks
 * expire two days after they are written, past the stream's 24 h retention (no record older than
 * that can be delivered again).
 */
import { shortHash } from './short-hash.js';

/** Stream sequence numbers are decimal strings of 21–40 digits: padded, they sort as text. */
export const padSequence = (seq: string) => seq.padStart(40, '0');
const unpad = (padded: string) => padded.replace(/^0+(?=\d)/, '');

/** The id of the segment of `shardId` that starts at record `firstSeq`. */
export const segmentIdOf = (streamArn: string, shardId: string, firstSeq: string) => shortHash(`s|${streamArn}|${shardId}|${firstSeq}`);

/** The id of a segment of one record, by its eventID (unique and stable across redeliveries). */
export const recordSegmentId = (eventId: string) => shortHash(`e|${eventId}`);

export const rollupCommitPartition = (streamArn: string, shardId: string) => `rollup-commit#${shortHash(`${streamArn}|${shardId}`)}`;

/** How long a commit mark is kept: beyond any redelivery (DynamoDB streams keep records 24 h). */
export const COMMIT_TTL_MS = 2 * 86_400_000;

export interface SegmentRange {
  readonly first: string;
  readonly last: string;
}

export function rollupCommitItem(streamArn: string, shardId: string, range: SegmentRange, nowMs: number) {
  return {
    pk: rollupCommitPartition(streamArn, shardId),
    sk: padSequence(range.first),
    kind: 'rollupCommit',
    last: padSequence(range.last),
    expiresAt: Math.ceil((nowMs + COMMIT_TTL_MS) / 1000),
  };
}

/** Access pattern "marks of segments starting in [first, last]" (a replayed range). */
export const rollupCommitsIn = (range: SegmentRange) => ({ lo: padSequence(range.first), hi: padSequence(range.last) });

export const ROLLUP_COMMIT_PROJECTION = { ProjectionExpression: 'sk, #l', ExpressionAttributeNames: { '#l': 'last' } };

export const parseRollupCommit = (item: Record<string, unknown>): SegmentRange => ({ first: unpad(String(item.sk)), last: unpad(String(item.last)) });
