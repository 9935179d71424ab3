/**
 * `npm run redrive -- [--queue-url <url>] [--function outbox|rollups] [--max <n>] [--endpoints <file>]`
 *
 * Re-drives the stream batches described in an on-failure queue (default: the local stack's
 * stream-failures queue) against the running local stack (`npm start`, found through its
 * endpoints.json): reads each batch back from the stream, runs the consumer's handler on it here,
 * and deletes the message once it went through. Prints one line per message; exits 1 if any
 * could not be re-driven (left in the queue). See local/redrive.ts; README "Operations".
 */
import { parseArgs } from 'node:util';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse } from 'aws-lambda';
import { eventSources, functions, type StreamSourceDef } from '../lib/defs/index.js';
import { localCredentials, localRegion } from './aws-local.js';
import { readEndpoints } from './endpoints.js';
import { lambdaContext, loadHandler } from './handlers.js';
import { endpointsFile } from './paths.js';
import { redriveStreamFailures } from './redrive.js';

const { values } = parseArgs({
  options: {
    'queue-url': { type: 'string' },
    function: { type: 'string' },
    max: { type: 'string' },
    endpoints: { type: 'string', default: endpointsFile },
    help: { type: 'boolean', default: false },
  },
});
const streamSources = eventSources.filter((s): s is StreamSourceDef => s.kind === 'stream');
if (values.help) {
  console.log(
    'usage: npm run redrive -- [--queue-url <url>] [--function ' +
      streamSources.map((s) => s.fn).join('|') +
      '] [--max <n>] [--endpoints <file>]\n' +
      '  Re-drives failed stream batches from their on-failure records while the stream still holds them (24 h).',
  );
  process.exit(0);
}
const source = values.function === undefined ? undefined : streamSources.find((s) => s.fn === values.function);
if (values.function !== undefined && !source) {
  console.error(`--function must be one of ${streamSources.map((s) => s.fn).join(', ')}`);
  process.exit(2);
}
const max = values.max === undefined ? undefined : Number(values.max);
if (max !== undefined && !(Number.isInteger(max) && max > 0)) {
  console.error('--max must be a positive integer');
  process.exit(2);
}

const endpoints = readEndpoints(values.endpoints);
// The handlers run here, against the same local servers and with the same env as in the stack.
Object.assign(process.env, endpoints.env);
const config = { region: localRegion, credentials: localCredentials };
const sqs = new SQSClient({ ...config, endpoint: endpoints.sqsEndpoint });
const streams = new DynamoDBStreamsClient({ ...config, endpoint: endpoints.dynamoEndpoint });

const results = await redriveStreamFailures({
  sqs,
  streams,
  queueUrl: values['queue-url'] ?? endpoints.queueUrls.streamFailures,
  source,
  maxMessages: max,
  invoke: async (s, event) => {
    const handler = await loadHandler(s.fn);
    return (await handler(event, lambdaContext(s.fn, functions[s.fn].timeoutSeconds * 1000, crypto.randomUUID()))) as DynamoDBBatchResponse | undefined;
  },
});
for (const r of results) {
  console.log(
    [
      r.outcome.padEnd(10),
      r.messageId,
      r.fn ?? '-',
      r.shardId ?? '-',
      r.startSequenceNumber ?? '-',
      `read=${r.read}`,
      `delivered=${r.delivered}`,
      r.detail ?? '',
    ]
      .join('  ')
      .trimEnd(),
  );
}
console.log(`${results.filter((r) => r.outcome === 'redriven').length} of ${results.length} message(s) re-driven`);
sqs.destroy();
streams.destroy();
process.exit(results.every((r) => r.outcome === 'redriven') ? 0 : 1);
