/**
 * SDK clients, created once per module (per Lambda container). Endpoints come from the standard
 * service-specific env vars (`AWS_ENDPOINT_URL_DYNAMODB`, `AWS_ENDPOINT_URL_SQS`), which is how
 * the local runtime points the same code at DynamoDB Local and the local SQS server.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { withoutSdkLogging } from './quiet-client.js';

export const dynamo = withoutSdkLogging(new DynamoDBClient({ maxAttempts: 5 }));

/**
 * Document client. `wrapNumbers` keeps 19+ digit range keys exact: every Number comes back as a
 * `NumberValue` (string inside) instead of a lossy `number`.
 */
export const doc = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
  unmarshallOptions: { wrapNumbers: true },
});

export const sqs = withoutSdkLogging(new SQSClient({ maxAttempts: 5 }));
