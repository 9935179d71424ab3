/** Synthesizes the stack once per test file (bundling included), optionally with cdk-nag. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '../../lib/app.js';
import type { TickfeedStack } from '../../lib/tickfeed-stack.js';

/**
 * Bundling is skipped (`aws:cdk:bundling-stacks: []`): template intent does not depend on the
 * bundle's bytes, and the bundles themselves are run by the bundles pass (`npm run test:bundles`).
 */
export function synth(opts: { context?: Record<string, unknown>; nag?: boolean } = {}): {
  app: App;
  stack: TickfeedStack;
  template: Template;
} {
  const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'tickfeed-cdk-')), context: { 'aws:cdk:bundling-stacks': [], ...opts.context } });
  const stack = buildApp(app);
  if (opts.nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, template: Template.fromStack(stack) };
}
