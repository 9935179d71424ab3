/** DynamoDB tables from the shared definitions: on-demand, PITR, TTL, streams where declared. */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { constructId, type KeyAttribute, type TableId, tableList } from '../defs/index.js';

const attr = (k: KeyAttribute): dynamodb.Attribute => ({
  name: k.name,
  type: k.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
});

export function createTables(scope: Construct): Record<TableId, dynamodb.Table> {
  const out = {} as Record<TableId, dynamodb.Table>;
  for (const def of tableList) {
    const table = new dynamodb.Table(scope, constructId(def.id, 'Table'), {
      partitionKey: attr(def.partitionKey),
      sortKey: def.sortKey ? attr(def.sortKey) : undefined,
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: def.ttlAttribute,
      stream: def.stream ? dynamodb.StreamViewType.NEW_AND_OLD_IMAGES : undefined,
      // Feeds and follow graphs are user data: a stack deletion must not take them along.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    out[def.id] = table;
  }
  return out;
}
