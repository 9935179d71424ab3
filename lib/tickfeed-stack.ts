/**
 * tickfeed on AWS, top to bottom like the architecture picture:
 *   tables → queues → functions (each bound to what it uses) → HTTP API (+ JWT) → event sources.
 * Every resource comes from the shared definitions in lib/defs, which the local runtime reads too.
 */
import { type CfnElement, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { acknowledgeNagFindings } from './nag.js';
import { jwtTrust } from './constructs/auth.js';
import { wireEventSources } from './constructs/event-sources.js';
import { createFunctions } from './constructs/functions.js';
import { createHttpApi } from './constructs/http-api.js';
import { createQueues } from './constructs/queues.js';
import { createTables } from './constructs/tables.js';

export class TickfeedStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    const tables = createTables(this);
    const queues = createQueues(this);
    const fns = createFunctions(this, { tables, queues });
    const api = createHttpApi(this, fns, jwtTrust(this));
    wireEventSources({ fns, tables, queues });

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint });
    for (const [tableId, table] of Object.entries(tables)) new CfnOutput(this, `${tableId}TableName`, { value: table.tableName });
    for (const [queueId, queue] of Object.entries(queues)) new CfnOutput(this, `${queueId}QueueUrl`, { value: queue.queueUrl });

    acknowledgeNagFindings(this, this.getLogicalId(tables.feed.node.defaultChild as CfnElement) + '.Arn');
  }
}
