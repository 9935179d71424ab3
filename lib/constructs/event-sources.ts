/**
 * Event sources from the shared definitions, with Lambda's partial-failure and retry settings,
 * the stream consumers' event filters (FilterCriteria) and tumbling windows, and the SQS sources'
 * maximum concurrency.
 */
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { type DeploymentSettings, eventSources, type FunctionId, type QueueId, type TableId } from '../defs/index.js';

export function wireEventSources(
  resources: {
    fns: Record<FunctionId, NodejsFunction>;
    tables: Record<TableId, dynamodb.Table>;
    queues: Record<QueueId, sqs.Queue>;
  },
  settings: Pick<DeploymentSettings, 'maxConcurrency'>,
): void {
  for (const source of eventSources) {
    const fn = resources.fns[source.fn];
    if (source.kind === 'sqs') {
      fn.addEventSource(
        new SqsEventSource(resources.queues[source.queue], {
          batchSize: source.batchSize,
          maxBatchingWindow: source.maxBatchingWindowSeconds ? Duration.seconds(source.maxBatchingWindowSeconds) : undefined,
          reportBatchItemFailures: source.reportBatchItemFailures,
          maxConcurrency: settings.maxConcurrency[source.id],
        }),
      );
    } else {
      fn.addEventSource(
        new DynamoEventSource(resources.tables[source.table], {
          startingPosition: lambda.StartingPosition[source.startingPosition],
          batchSize: source.batchSize,
          retryAttempts: source.retryAttempts,
          maxRecordAge: Duration.seconds(source.maxRecordAgeSeconds),
          bisectBatchOnError: source.bisectBatchOnError,
          reportBatchItemFailures: source.reportBatchItemFailures,
          onFailure: new SqsDlq(resources.queues[source.onFailure]),
          filters: source.filters.length ? source.filters.map((pattern) => lambda.FilterCriteria.filter(pattern)) : undefined,
          tumblingWindow: source.tumblingWindowSeconds ? Duration.seconds(source.tumblingWindowSeconds) : undefined,
        }),
      );
    }
  }
}
