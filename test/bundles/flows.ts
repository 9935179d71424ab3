/**
 * The integration flows the bundles pass runs with every function served from its cdk.out bundle
 * (not the whole suite twice): together they invoke every function — the pass's last test fails
 * naming any function none of them reaches. Flows that inject faults into the handlers' own SDK
 * clients (in-process middleware) cannot run here: a bundle has its own SDK inside.
 */
import type { FunctionId } from '../../lib/defs/index.js';

export const BUNDLE_FLOWS: readonly string[] = [
  'test/integration/health-me-auth-fallback.test.ts', // health, me, the fallback route
  'test/integration/event-source-plumbing.test.ts', // stream → outbox → SQS → worker
  'test/integration/feed-core.test.ts', // posting, reading, deleting, the OpenAPI document, rollups and activity reads
  'test/integration/fanout.test.ts', // follow, backfill, fan-out, cleanup
  'test/integration/hybrid.test.ts', // pull and unpull (maintenance lane)
  'test/integration/social.test.ts', // reactions, comments, notifications
  'test/integration/controls.test.ts', // mute and block
  'test/integration/account.test.ts', // export and erase (a stack of its own)
  'test/integration/rollups-stream.test.ts', // the rollups consumer and reads
  'test/integration/bulk-import.test.ts', // the batch import
  'test/integration/realtime.test.ts', // GET /realtime, the socket's routes, pushes from the lanes
  'test/integration/migration-on-deploy.test.ts', // the deploy's migrationStart, migrate jobs on the maintenance lane
  'test/integration/ranked-feeds.test.ts', // ranked feeds: definitions, ranked pages, feedback
  'test/integration/fanout-backlog-live.test.ts', // the fanoutBacklog lane (every fanout job handed on)
];

/**
 * Functions no flow can run from its bundle yet, each with the reason. Only ever shrinks: the
 * coverage test also fails on an entry some flow does invoke (take it out then).
 */
export const NOT_YET_FROM_BUNDLES: Readonly<Partial<Record<FunctionId, string>>> = {
  realtimeAuthorizer:
    'the local issuer (https://tickfeed.local/issuer) publishes no JWKS for the authorizer to fetch, so the local realtime API checks the $connect token with the local verifier (local/realtime-api.ts); realtime-authorizer.test.ts runs the authorizer against a loopback JWKS and hands its answer to $connect',
};
