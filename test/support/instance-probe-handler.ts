/**
 * A handler entry with per-invocation state at module level, on purpose: it counts the invocations
 * its module has in flight. The local runtime loads it as the entry of a probe function
 * (test/integration/local-instances.test.ts); each instance is one evaluation of this module, so
 * the count says whether an instance ever ran two invocations at once.
 */
import type { SQSBatchResponse } from 'aws-lambda';
import { instanceStarted, invocationEnded, invocationRuns } from './instance-probe.js';

const instance = instanceStarted();
let inFlight = 0;

export async function handler(): Promise<SQSBatchResponse> {
  inFlight++;
  try {
    await invocationRuns(inFlight, instance);
  } finally {
    inFlight--;
    invocationEnded();
  }
  return { batchItemFailures: [] };
}
