/**
 * tickfeed on AWS, top to bottom like the architecture picture:
 *   tables → queues → functions (each bound to what it uses) → HTTP API (+ JWT) → realtime
 *   WebSocket API (the same JWTs) → event sources → the data-model migration each deploy starts →
 *   alarms (every loss path, to one SNS topic).
 * Every resource comes from the shared definitions in lib/defs, which the local runtime reads too.
 */
import { type CfnElement, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Construct } from 'constructs';
import { readDeploymentSettings } from './defs/index.js';
import { acknowledgeNagFindings } from './nag.js';
import { createAlarms } from './constructs/alarms.js';
import { jwtTrust } from './constructs/auth.js';
import { wireEventSources } from './constructs/event-sources.js';
import { createFunctions } from './constructs/functions.js';
import { createHttpApi } from './constructs/http-api.js';
import { createQueues } from './constructs/queues.js';
import { createRealtimeApi } from './constructs/realtime.js';
import { createTables } from './constructs/tables.js';
import { migrateOnDeploy } from './constructs/migration-trigger.js';

export class TickfeedStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    const settings = readDeploymentSettings((key) => this.node.tryGetContext(key));
    const tables = createTables(this);
    const queues = createQueues(this);
    const fns = createFunctions(this, { tables, queues });
    const trust = jwtTrust(this);
    const api = createHttpApi(this, fns, trust, settings);
    const realtime = createRealtimeApi(this, fns, trust);
    wireEventSources({ fns, tables, queues }, settings);
    migrateOnDeploy(this, { fns, tables, queues });
    const { topic } = createAlarms(this, { fns, queues, api }, settings);
    realtime.pushFailures.addAlarmAction(new SnsAction(topic));
    realtime.pushFailures.addOkAction(new SnsAction(topic));

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint });
    new CfnOutput(this, 'RealtimeUrl', { value: realtime.stage.url });
    new CfnOutput(this, 'AlarmTopicArn', { value: topic.topicArn });
    for (const [tableId, table] of Object.entries(tables)) new CfnOutput(this, `${tableId}TableName`, { value: table.tableName });
    for (const [queueId, queue] of Object.entries(queues)) new CfnOutput(this, `${queueId}QueueUrl`, { value: queue.queueUrl });

    acknowledgeNagFindings(this, this.getLogicalId(tables.feed.node.defaultChild as CfnElement) + '.Arn');
  }
}
