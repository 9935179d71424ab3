export * from './config.js';
export * from './deployment.js';
export * from './event-sources.js';
export * from './functions.js';
export * from './key-prefixes.js';
export * from './lanes.js';
export * from './metrics.js';
export * from './queues.js';
export * from './rate-limits.js';
export * from './realtime.js';
export * from './routes.js';
export * from './scopes.js';
export * from './tables.js';

/** Resource name prefix, for local physical names and the CDK stack id. */
export const appName = 'tickfeed';

/**
 * The CDK construct id of a shared definition (`fanoutDlq` + `Queue` → `FanoutDlqQueue`): the one
 * naming rule the stack, the cdk-nag acknowledgements, the alarms and the local tools all follow.
 */
export const constructId = (id: string, suffix = ''): string => `${id[0]!.toUpperCase()}${id.slice(1)}${suffix}`;
