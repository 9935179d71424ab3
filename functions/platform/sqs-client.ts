/**
 * The SQS client, created once per module (per Lambda container); its endpoint comes from
 * `AWS_ENDPOINT_URL_SQS` locally. A module of its own, apart from the DynamoDB clients
 * (clients.ts, which re-exports it): the document client's package cannot be tree-shaken, so a
 * function that only sends (the outbox) would otherwise carry all of DynamoDB's.
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { withoutSdkLogging } from './quiet-client.js';

export const sqs = /* @__PURE__ */ withoutSdkLogging(/* @__PURE__ */ new SQSClient({ maxAttempts: 5 }));
