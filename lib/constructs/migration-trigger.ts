/**
 * Starts a data-model migration with every deploy that changes the migrationStart function (its
 * bundle holds the model version, so a release with a new model always does): a CDK trigger
 * invokes it once the tables, the maintenance lane's queue and the maintenance worker's new code
 * exist — the worker must know the `migrate` job before one is queued.
 */
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Trigger } from 'aws-cdk-lib/triggers';
import type { Construct } from 'constructs';
import type { FunctionId, QueueId, TableId } from '../defs/index.js';

export const MIGRATION_TRIGGER_ID = 'MigrateOnDeploy';

export function migrateOnDeploy(
  scope: Construct,
  resources: { fns: Record<FunctionId, NodejsFunction>; tables: Record<TableId, dynamodb.Table>; queues: Record<QueueId, sqs.Queue> },
): Trigger {
  return new Trigger(scope, MIGRATION_TRIGGER_ID, {
    handler: resources.fns.migrationStart,
    executeAfter: [...Object.values(resources.tables), resources.queues.maintenance, resources.fns.maintenanceWorker],
    executeOnHandlerChange: true,
    timeout: Duration.minutes(1),
  });
}
