/**
 * SDK clients, created once per module (per Lambda container). Endpoints come from the standard
 * service-specific env vars (`AWS_ENDPOINT_URL_DYNAMODB`, `AWS_ENDPOINT_URL_SQS`), which is how
 * the local runtime points the same code at DynamoDB Local and the local SQS server.
 * Marked pure: a bundle keeps only the clients its function uses (no SQS client in a function
 * that sends nothing: test/infra/bundle-contents.test.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { withoutSdkLogging } from './quiet-client.js';

export const dynamo = /* @__PURE__ */ withoutSdkLogging(/* @__PURE__ */ new DynamoDBClient({ maxAttempts: 5 }));

/**
 * Document client. `wrapNumbers` keeps 19+ digit range keys exact: every Number comes back as a
 * `NumberValue` (string inside) instead of a lossy `number`.
 */
export const doc = /* @__PURE__ */ DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
  unmarshallOptions: { wrapNumbers: true },
});

/** The SQS client lives in a module of its own: a sender that stores nothing carries no DynamoDB code. */
export { sqs } from './sqs-client.js';
