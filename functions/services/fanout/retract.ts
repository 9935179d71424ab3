/**
 * retract job: after DELETE /activities marked an original, delete its copies (same rk, no
 * lookup) from one page of the author's followers — and the author's own on the first page. The
 * original stays as a hidden tombstone until its TTL, so a backfill, unpull or cleanup that runs
 * late still sees that the post was deleted (see fanout.ts and backfill.ts for the other half).
 */
import { removeCopies } from '../home-feed-copies.js';
import type { Job } from '../jobs/jobs.js';
import { FOLLOWER_PAGE, followerPage } from './shared.js';

export async function retract(job: Extract<Job, { kind: 'retract' }>): Promise<void> {
  const rk = BigInt(job.rk);
  const followers = await followerPage(job, job.author, FOLLOWER_PAGE);
  const owners = job.cursor ? followers : [job.author, ...followers];
  await removeCopies(owners.map((owner) => ({ owner, rk })));
}
