/**
 * Erasing a user (DELETE /me, or an admin's DELETE /users/{userId}): a resumable background job,
 * one bounded step per message, each step idempotent (a redelivery redoes what is already done
 * harmlessly), the job re-enqueuing itself until the last phase. See phases.ts for what each
 * phase removes. Rollup aggregates stay: they hold no user id.
 */
import { ERASE_PHASES, type ErasePhase } from '../../model/erasure.js';
import { logger } from '../../platform/logger.js';
import { markErased } from '../../stores/erasure-store.js';
import { controlSettleSeconds } from '../controls-state.js';
import { enqueueJob } from '../jobs/bus.js';
import type { JobRunner } from '../jobs/define.js';
import { eraseJob } from './erase-job.js';
import { phaseSteps } from './phases.js';

/** Start (or restart: harmless) the erase of `user`. */
export async function requestErase(user: string): Promise<void> {
  await markErased(user, false);
  await enqueueJob({ kind: 'erase', user, phase: ERASE_PHASES[0] });
}

/** One step of a phase; then the same phase again if it has more, else the next phase. */
export async function eraseStep(user: string, phase: ErasePhase): Promise<void> {
  const more = await phaseSteps[phase](user);
  if (more) return enqueueJob({ kind: 'erase', user, phase });
  const next = ERASE_PHASES[ERASE_PHASES.indexOf(phase) + 1];
  // Before the home feed goes, wait out any fan-out page that read the user among its followers
  // before their follows ended (a worker attempt ends within its timeout, which the settle exceeds).
  if (next === 'feed') return enqueueJob({ kind: 'erase', user, phase: next }, controlSettleSeconds());
  if (next) return enqueueJob({ kind: 'erase', user, phase: next });
  await markErased(user, true);
  logger.info('erase finished', { phases: ERASE_PHASES.length });
}

export const eraseRunner: JobRunner<typeof eraseJob> = { def: eraseJob, run: (job) => eraseStep(job.user, job.phase) };
