import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type Environment, Validations } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../lib/app.js';
import { type OperationId, type RouteDef, routes } from '../../lib/defs/index.js';
import { nagAcknowledgements } from '../../lib/nag.js';
import { STACK_ENVIRONMENTS, synth } from './synth.js';

function synthError(addViolation: boolean, env?: Environment): string {
  const { app, stack } = synth({ nag: true, env });
  // A queue without TLS enforcement or a DLQ: something the pack must object to.
  if (addViolation) new Queue(stack, 'CarelessQueue', { enforceSSL: false });
  try {
    app.synth();
    return 'no findings';
  } catch (error) {
    return String(error);
  }
}

/**
 * Drops every acknowledgement from the tree. Acknowledgements are construct metadata
 * (Validations.ACKNOWLEDGED_RULES_METADATA_KEY) and constructs expose no way to remove metadata,
 * so this edits the node's private list; if that ever stops working, the test below fails (no
 * finding would be reported at all), it cannot pass vacuously.
 */
function dropAcknowledgements(root: IConstruct): void {
  for (const c of root.node.findAll()) {
    const node = c.node as unknown as { _metadata?: { type: string }[] };
    if (node._metadata) node._metadata = node._metadata.filter((m) => m.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY);
  }
}

describe('cdk-nag AwsSolutions', { timeout: 180_000 }, () => {
  // The CDK CLI builds the stack in a concrete region (and account, with credentials), and the
  // findings spell those literally: every acknowledgement must hold in each environment.
  it.each(Object.entries(STACK_ENVIRONMENTS))('reports no unacknowledged finding on the stack (%s)', (_name, env) => {
    expect(synthError(false, env)).toBe('no findings');
  });

  it('does fail synthesis on a new violation (the check is live)', () => {
    expect(synthError(true)).not.toBe('no findings');
  });

  it('does fail synthesis on an acknowledged rule broken by another resource (acknowledgements are per resource)', () => {
    const { app, stack } = synth({ nag: true });
    new Queue(stack, 'AnotherQueueWithoutDlq', { enforceSSL: true }); // AwsSolutions-SQS3, acknowledged only on the stream-failures queue
    expect(() => app.synth()).toThrow(/AnotherQueueWithoutDlq/);
  });

  it('does fail synthesis on a new route without the authorizer that is not in the public list', () => {
    // A route definition like any other, only public: the acknowledgement of APIG4 is for the
    // deliberate public list (lib/nag.ts), not for whatever is declared unauthenticated.
    const careless: RouteDef = { id: 'careless' as OperationId, method: 'GET', path: '/careless', fn: 'health', access: 'public', auth: false };
    const list = routes as RouteDef[];
    list.push(careless);
    try {
      expect(() => synth({ nag: true }).app.synth()).toThrow(/AwsSolutions-APIG4[\s\S]*careless|careless[\s\S]*AwsSolutions-APIG4/);
    } finally {
      list.splice(list.indexOf(careless), 1);
    }
    expect(synthError(false)).toBe('no findings'); // the same stack without it is clean
  });

  it.each(Object.entries(STACK_ENVIRONMENTS))('acknowledges only findings that exist, each on resources that have it, with a reason (%s)', (_name, env) => {
    // Not synth(): its Template.fromStack runs the checks once already, with the acknowledgements.
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'tickfeed-nag-')), context: { 'aws:cdk:bundling-stacks': [] } });
    const acks = nagAcknowledgements(buildApp(app, env));
    dropAcknowledgements(app);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow();
    const report = JSON.parse(readFileSync(join(app.outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: { violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
    };
    const findings = report.pluginReports.flatMap((p) =>
      p.violations.flatMap((v) => v.violatingConstructs.map((c) => ({ id: v.ruleName, path: c.constructPath }))),
    );
    expect(findings.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.scopes.length, ack.id).toBeGreaterThan(0);
      expect(ack.reason.length, ack.id).toBeGreaterThan(20);
      for (const scope of ack.scopes) {
        const path = scope.node.path;
        const found = findings.some((f) => f.id === ack.id && (f.path === path || f.path.startsWith(`${path}/`)));
        expect(found, `${ack.id} acknowledged on ${path}, which has no such finding`).toBe(true);
      }
    }
  });

  it('acknowledges the Cognito MFA finding only when the stack creates a pool', () => {
    const { stack } = synth({ context: { jwtIssuer: 'https://issuer.example', jwtAudience: 'aud-1' } });
    expect(nagAcknowledgements(stack).map((a) => a.id)).not.toContain('AwsSolutions-COG2');
    expect(nagAcknowledgements(synth().stack).map((a) => a.id)).toContain('AwsSolutions-COG2');
  });
});
