import { Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { synth } from './synth.js';

function synthError(addViolation: boolean): string {
  const { app, stack } = synth({ nag: true });
  // A queue without TLS enforcement or a DLQ: something the pack must object to.
  if (addViolation) new Queue(stack, 'CarelessQueue', { enforceSSL: false });
  try {
    app.synth();
    return 'no findings';
  } catch (error) {
    return String(error);
  }
}

describe('cdk-nag AwsSolutions', { timeout: 180_000 }, () => {
  it('reports no unacknowledged finding on the stack', () => {
    expect(synthError(false)).toBe('no findings');
  });

  it('does fail synthesis on a new violation (the check is live)', () => {
    expect(synthError(true)).not.toBe('no findings');
  });
});
