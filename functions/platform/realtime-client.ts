/**
 * The API Gateway management client (`@connections`) of the realtime API, created on first use:
 * its endpoint comes from REALTIME_ENDPOINT, which the CDK stack sets on the pushing functions only
 * (lib/defs/functions.ts `realtime.pushes`) and the local runtime points at its own WebSocket
 * server's management endpoint — the same code sends in both.
 */
import { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { REALTIME_ENDPOINT_ENV } from '../../lib/defs/realtime.js';
import { requireEnv } from './env.js';
import { withoutSdkLogging } from './quiet-client.js';

let client: ApiGatewayManagementApiClient | undefined;

/** Hooks that see the client once it exists (the local runtime adds its IAM check: local/iam.ts). */
const onCreate = new Set<(c: ApiGatewayManagementApiClient) => void>();
export const whenManagementClient = (hook: (c: ApiGatewayManagementApiClient) => void) => {
  if (client) hook(client);
  else onCreate.add(hook);
};

/**
 * Whether this function can push: REALTIME_ENDPOINT is set. Until the CDK stack wires the
 * WebSocket API (lib/constructs/realtime.ts), a deployed function has none and pushes are skipped
 * — a fan-out must not fail for want of a channel nobody can connect to yet.
 */
export const realtimeConfigured = (): boolean => Boolean(process.env[REALTIME_ENDPOINT_ENV]);

export function managementClient(): ApiGatewayManagementApiClient {
  if (!client) {
    // Two attempts: a push is best-effort (the client catches up on reconnect); a slow retry would hold the job.
    client = withoutSdkLogging(new ApiGatewayManagementApiClient({ endpoint: requireEnv(REALTIME_ENDPOINT_ENV), maxAttempts: 2 }));
    for (const hook of onCreate) hook(client);
  }
  return client;
}
