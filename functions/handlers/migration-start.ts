/**
 * Invoked by the deploy (a CDK trigger, after the maintenance worker's new code is in place):
 * when the tables hold an older data model, queues its migration on the maintenance lane and
 * answers at once — the deploy does not wait for the data, and the API serves meanwhile
 * (docs/deploy.md, Upgrading). A failure here fails the deploy, which CloudFormation rolls back.
 */
import { logger } from '../platform/logger.js';
import { startMigration } from '../services/migrations/job.js';

export const handler = async (): Promise<{ version: number; queued: number }> => {
  const started = await startMigration();
  logger.info(started.queued ? 'data-model migration queued' : 'data model current', { ...started });
  return started;
};
