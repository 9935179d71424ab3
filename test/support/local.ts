/**
 * The shared local stack of the test run (started by test/global-setup.ts): its SDK clients and its
 * `TestStack` handle, the default target of `api()` and the seeders. Tests isolate by ids from
 * `uid()` (support/ids.ts), so they never see each other's data.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import type { TestStack } from './stack-info.js';

export const stack = inject('localStack');

// Guard: these helpers only ever talk to loopback endpoints.
for (const url of [stack.apiUrl, stack.dynamoEndpoint, stack.sqsEndpoint]) {
  if (!url.startsWith('http://127.0.0.1:')) throw new Error(`refusing non-local endpoint ${url}`);
}

const clientConfig = { region: localRegion, credentials: localCredentials };
export const dynamo = new DynamoDBClient({ ...clientConfig, endpoint: stack.dynamoEndpoint });
export const doc = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
  unmarshallOptions: { wrapNumbers: true },
});
export const streams = new DynamoDBStreamsClient({ ...clientConfig, endpoint: stack.dynamoEndpoint });
export const sqs = new SQSClient({ ...clientConfig, endpoint: stack.sqsEndpoint });

/** The shared stack, for `api()` (its answers checked against the OpenAPI document) and the seeders. */
export const shared: TestStack = {
  apiUrl: stack.apiUrl,
  keys: { privateJwk: stack.privateJwk, publicJwk: stack.publicJwk },
  doc,
  tableNames: stack.tableNames,
  checkResponses: true,
};
