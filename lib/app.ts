import type { App, Environment } from 'aws-cdk-lib';
import { configKeys, readDeploymentSettings, validateConfig } from './defs/index.js';
import { TickfeedStack } from './tickfeed-stack.js';

/** The environment the CDK CLI resolved (a region always; an account where credentials exist). */
const cliEnvironment = (): Environment => ({ account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION });

/**
 * Builds the tickfeed stack into `app`, failing first on a malformed config value in the context.
 * `env` defaults to what the CDK CLI hands the app; tests pass the environments users meet.
 */
export function buildApp(app: App, env: Environment = cliEnvironment()): TickfeedStack {
  validateConfig((key) => {
    const value: unknown = app.node.tryGetContext(configKeys[key].contextKey);
    return value === undefined || value === null ? undefined : String(value);
  });
  readDeploymentSettings((key) => app.node.tryGetContext(key)); // stack-only settings: same up-front check
  return new TickfeedStack(app, 'Tickfeed', { env });
}
