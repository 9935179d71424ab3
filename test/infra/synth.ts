/** Synthesizes the stack once per test file (bundling included), optionally with cdk-nag. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type Environment, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '../../lib/app.js';
import type { TickfeedStack } from '../../lib/tickfeed-stack.js';

/**
 * The environments a stack meets: the tests' own (no region), what the CDK CLI resolves with
 * nothing configured (us-east-1), a user's region, and a region with an account (credentials).
 */
export const STACK_ENVIRONMENTS: Readonly<Record<string, Environment>> = {
  'environment-agnostic': {},
  'region us-east-1 (the CLI with nothing configured)': { region: 'us-east-1' },
  'region eu-west-1': { region: 'eu-west-1' },
  'region ap-southeast-2, account 123456789012': { region: 'ap-southeast-2', account: '123456789012' },
};

/**
 * Bundling is skipped (`aws:cdk:bundling-stacks: []`): template intent does not depend on the
 * bundle's bytes, and the bundles themselves are run by the bundles pass (`npm run test:bundles`).
 */
export function synth(opts: { context?: Record<string, unknown>; nag?: boolean; env?: Environment } = {}): {
  app: App;
  stack: TickfeedStack;
  template: Template;
} {
  const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'tickfeed-cdk-')), context: { 'aws:cdk:bundling-stacks': [], ...opts.context } });
  const stack = buildApp(app, opts.env ?? {}); // environment-agnostic unless a test names one
  if (opts.nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, template: Template.fromStack(stack) };
}
