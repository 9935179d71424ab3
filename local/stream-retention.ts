/**
 * What the local stream poller says and counts when a shard's position is past the stream's
 * retention (records live 24 hours, in DynamoDB Local as in DynamoDB Streams).
 */

/** The records a poller skipped because they were trimmed before it read them. */
export interface PastRetention {
  skipped: bigint;
}

/**
 * How many records lay between a trimmed checkpoint and the oldest record left. DynamoDB Local
 * numbers a shard's records one by one, so the gap is exact there; AWS's sequence numbers only
 * grow, so a gap read off them would not be a count, and none is claimed (0). An empty shard
 * (nothing left, `oldest` undefined) gives 0 as well: what was trimmed cannot be counted.
 */
export function skippedBetween(checkpoint: string, oldest: string | undefined): bigint {
  if (oldest === undefined || !/^\d+$/.test(checkpoint) || !/^\d+$/.test(oldest)) return 0n;
  const gap = BigInt(oldest) - BigInt(checkpoint) - 1n;
  return gap > 0n && gap < 1_000_000_000n ? gap : 0n;
}

/** The one line a poller logs for a shard whose position was past retention. */
export const pastRetentionLine = (source: string, shardId: string, checkpoint: string, skipped: bigint): string =>
  `stream poller ${source} shard ${shardId}: its position (${checkpoint || 'the last checkpoint'}) is past the stream's 24-hour retention; ` +
  `went on from the oldest record left, as Lambda does: ${skipped} record(s) older than the retention were skipped`;
