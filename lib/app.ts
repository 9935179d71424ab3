import type { App } from 'aws-cdk-lib';
import { configKeys, readDeploymentSettings, validateConfig } from './defs/index.js';
import { TickfeedStack } from './tickfeed-stack.js';

/** Builds the tickfeed stack into `app`, failing first on a malformed config value in the context. */
export function buildApp(app: App): TickfeedStack {
  validateConfig((key) => {
    const value: unknown = app.node.tryGetContext(configKeys[key].contextKey);
    return value === undefined || value === null ? undefined : String(value);
  });
  readDeploymentSettings((key) => app.node.tryGetContext(key)); // stack-only settings: same up-front check
  return new TickfeedStack(app, 'Tickfeed', {
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
}
