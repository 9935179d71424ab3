/**
 * Alarms on every path where work can be lost or stall, all to one SNS topic (with an e-mail
 * subscription when cdk.json context `alarmEmail` is set):
 * - a dead-letter queue or stream on-failure queue holds a message (depth > 0): a fan-out job, or a
 *   stream batch that exhausted its retries (re-drive it with `npm run redrive` while the stream
 *   still holds its records: 24 h);
 * - a job lane's oldest message is older than the lane's promise allows (lib/defs/lanes.ts), and a
 *   fan-out page finished more than 10 s after its post (FanoutLag, from the fan-out worker);
 * - a stream consumer falls behind (IteratorAge above `iteratorAgeAlarm`, default 5 min): records
 *   age out of the stream after 24 h;
 * - a data-model migration job fails (MigrationFailures, from the maintenance worker);
 * - the HTTP API answers 5xx;
 * - any function errors or is throttled.
 * The queues and stream consumers come from the shared definitions, so a new one is covered.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  constructId,
  type DeploymentSettings,
  eventSources,
  fanoutLagAlarmMs,
  type FunctionId,
  functionList,
  laneList,
  laneQueue,
  metricNames,
  metricNamespace,
  type QueueId,
  queueList,
} from '../defs/index.js';

const pascal = (id: string) => constructId(id);

/** Queues whose messages are lost work: every dead-letter target and every stream on-failure queue. */
export function lossQueues(): QueueId[] {
  const ids = new Set<QueueId>();
  for (const q of queueList) if (q.deadLetter) ids.add(q.deadLetter.queue);
  for (const s of eventSources) if (s.kind === 'stream') ids.add(s.onFailure);
  return [...ids];
}

/** Functions consuming a DynamoDB stream (each has its own mapping, so its IteratorAge is the mapping's). */
export const streamConsumers = (): FunctionId[] => [...new Set(eventSources.flatMap((s) => (s.kind === 'stream' ? [s.fn] : [])))];

export function createAlarms(
  scope: Construct,
  resources: { fns: Record<FunctionId, NodejsFunction>; queues: Record<QueueId, sqs.Queue>; api: apigw.HttpApi },
  settings: Pick<DeploymentSettings, 'iteratorAgeAlarmMs' | 'alarmEmail'>,
): { topic: sns.Topic; alarms: cloudwatch.Alarm[] } {
  const topic = new sns.Topic(scope, 'AlarmTopic', { displayName: 'tickfeed alarms', enforceSSL: true });
  // CloudWatch publishes alarm state changes; only for alarms of this account.
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'AllowCloudWatchAlarms',
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
    }),
  );
  if (settings.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(settings.alarmEmail));

  const action = new SnsAction(topic);
  const alarms: cloudwatch.Alarm[] = [];
  const alarm = (id: string, metric: cloudwatch.IMetric, threshold: number, description: string) => {
    const a = new cloudwatch.Alarm(scope, id, {
      metric,
      threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    a.addAlarmAction(action);
    a.addOkAction(action);
    alarms.push(a);
  };
  const minute = Duration.minutes(1);

  for (const id of lossQueues()) {
    alarm(
      `${pascal(id)}DepthAlarm`,
      resources.queues[id].metricApproximateNumberOfMessagesVisible({ period: minute, statistic: cloudwatch.Stats.MAXIMUM }),
      0,
      id !== 'streamFailures'
        ? `A job of the ${id.replace(/Dlq$/, '')} lane was dead-lettered: its work (a post's copies, a follow's backfill, a notification, an erase…) was not done. Inspect it, fix the cause and move it back to the lane's queue (SQS DLQ redrive).`
        : `A stream batch exhausted its retries and was skipped (queue ${id}). Fix the cause, then re-drive it within 24 h: npm run redrive -- --queue-url <url>.`,
    );
  }
  for (const id of streamConsumers()) {
    alarm(
      `${pascal(id)}IteratorAgeAlarm`,
      resources.fns[id].metric('IteratorAge', { period: minute, statistic: cloudwatch.Stats.MAXIMUM }),
      settings.iteratorAgeAlarmMs,
      `The ${id} stream consumer is more than ${settings.iteratorAgeAlarmMs / 1000}s behind; stream records expire after 24 h.`,
    );
  }
  // What users feel: work waiting in a lane (each lane's promise, lanes.ts), and a post slow to arrive.
  for (const lane of laneList) {
    alarm(
      `${pascal(lane.id)}LaneOldestMessageAlarm`,
      resources.queues[laneQueue(lane.id)].metricApproximateAgeOfOldestMessage({ period: minute, statistic: cloudwatch.Stats.MAXIMUM }),
      lane.oldestAgeAlarmSeconds,
      `The ${lane.id} lane's oldest job waited more than ${lane.oldestAgeAlarmSeconds}s (its promise: ${lane.promise}). Raise ${lane.id}MaxConcurrency or look for a failing job.`,
    );
  }
  alarm(
    'FanoutLagAlarm',
    new cloudwatch.Metric({
      namespace: metricNamespace,
      metricName: metricNames.fanoutLag,
      dimensionsMap: { service: 'tickfeed', lane: 'fanout' },
      period: minute,
      statistic: cloudwatch.Stats.MAXIMUM,
    }),
    fanoutLagAlarmMs,
    `A post took more than ${fanoutLagAlarmMs / 1000}s from its write to its followers' feeds.`,
  );
  alarm(
    'MigrationFailureAlarm',
    new cloudwatch.Metric({
      namespace: metricNamespace,
      metricName: metricNames.migrationFailures,
      dimensionsMap: { service: 'tickfeed', lane: 'maintenance' },
      period: minute,
      statistic: cloudwatch.Stats.SUM,
    }),
    0,
    'A data-model migration job failed (it is retried, then dead-lettered in the maintenance lane). Its error is in the maintenanceWorker log; fix the cause, then resume: npm run migrate -- --outputs cdk-outputs.json (docs/deploy.md, Upgrading).',
  );
  alarm(
    'Api5xxAlarm',
    resources.api.metricServerError({ period: minute, statistic: cloudwatch.Stats.SUM }),
    0,
    'The HTTP API answered 5xx (a handler failed, timed out or was throttled).',
  );
  for (const def of functionList) {
    const fn = resources.fns[def.id];
    const period = Duration.minutes(5);
    alarm(`${pascal(def.id)}ErrorsAlarm`, fn.metricErrors({ period, statistic: cloudwatch.Stats.SUM }), 0, `Function ${def.id} failed an invocation.`);
    alarm(`${pascal(def.id)}ThrottlesAlarm`, fn.metricThrottles({ period, statistic: cloudwatch.Stats.SUM }), 0, `Function ${def.id} was throttled.`);
  }
  return { topic, alarms };
}
