/**
 * Deployment settings that only the CDK stack reads (no function sees them): per-route stage
 * throttles, the fan-out worker's maximum concurrency, and the alarms' threshold and e-mail.
 * They come from cdk.json context; `cdk synth` parses them all up front (lib/app.ts), and a bad
 * value fails naming its context key, like the function config in config.ts.
 */
import { ConfigError } from './config.js';
import { parseDuration } from './durations.js';
import { eventSources } from './event-sources.js';
import { routeKey, routes } from './routes.js';

export interface RouteThrottle {
  /** Steady-state requests per second (API Gateway `ThrottlingRateLimit`). */
  readonly rateLimit: number;
  /** Bucket size (API Gateway `ThrottlingBurstLimit`). */
  readonly burstLimit: number;
}

export interface DeploymentSettings {
  /** Route key (`POST /activities`) → its stage throttle; routes not listed use the stage default. */
  readonly routeThrottles: Readonly<Record<string, RouteThrottle>>;
  /** Event source id → Lambda MaximumConcurrency of its mapping (sources that declare one). */
  readonly maxConcurrency: Readonly<Record<string, number>>;
  /** Alarm on a stream consumer's IteratorAge above this many milliseconds. */
  readonly iteratorAgeAlarmMs: number;
  /** Subscribed to the alarm topic when set. */
  readonly alarmEmail?: string;
}

/** A stack-only context key; `description` and `shownDefault` are what docs/configuration.md shows. */
export interface DeploymentKeyDef {
  readonly contextKey: string;
  readonly default: string;
  readonly description: string;
  readonly shownDefault?: string;
}

export const deploymentContextKeys = {
  routeThrottles: {
    contextKey: 'routeThrottles',
    default: '{}',
    shownDefault: 'none',
    description:
      'per-route stage throttles, JSON: `{"POST /activities": {"rateLimit": 50, "burstLimit": 100}}`; other routes keep the stage default (1000/s, burst 2000)',
  },
  iteratorAgeAlarm: { contextKey: 'iteratorAgeAlarm', default: '5m', description: "alarm when a stream consumer's IteratorAge exceeds this" },
  alarmEmail: { contextKey: 'alarmEmail', default: '', shownDefault: 'none', description: 'an address subscribed to the alarm topic' },
} as const satisfies Record<string, DeploymentKeyDef>;

/** The JWT issuer the stack trusts (lib/constructs/auth.ts reads them; both or neither). */
export const jwtContextKeys = {
  contextKeys: ['jwtIssuer', 'jwtAudience'],
  shownDefault:
    "empty: the stack creates a Cognito user pool with a users' app client (SRP sign-in, no OAuth flows) and a backend client (client credentials, scope `tickfeed/admin`), and trusts both",
  description: 'an existing OIDC issuer and audience (comma-separated) to trust instead; it must issue the scope `tickfeed/admin` to the backend',
} as const;

/** What each job lane's `<lane>MaxConcurrency` key sets (the keys and defaults: event-sources.ts). */
export const laneConcurrencyDescription = "Lambda's maximum concurrency of each job lane's SQS mapping (2–1000); see [job lanes](lanes.md)";

/**
 * `{"POST /activities": {"rateLimit": 50, "burstLimit": 100}}` (a JSON string or, from cdk.json,
 * the object itself). Keys must be route keys of routes.ts; rateLimit > 0, burstLimit an integer ≥ 0.
 */
export function parseRouteThrottles(raw: unknown): Record<string, RouteThrottle> {
  const value: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('expected an object of route key → {rateLimit, burstLimit}');
  const known = new Set(routes.map(routeKey));
  const out: Record<string, RouteThrottle> = {};
  for (const [key, t] of Object.entries(value as Record<string, unknown>)) {
    if (!known.has(key)) throw new Error(`"${key}" is not a route (expected one of ${[...known].join(', ')})`);
    const { rateLimit, burstLimit, ...rest } = (t ?? {}) as Record<string, unknown>;
    if (Object.keys(rest).length) throw new Error(`${key}: unknown field(s) ${Object.keys(rest).join(', ')}`);
    if (typeof rateLimit !== 'number' || !(rateLimit > 0) || !Number.isFinite(rateLimit)) throw new Error(`${key}: rateLimit must be a number > 0`);
    if (typeof burstLimit !== 'number' || !Number.isInteger(burstLimit) || burstLimit < 0) throw new Error(`${key}: burstLimit must be an integer ≥ 0`);
    out[key] = { rateLimit, burstLimit };
  }
  return out;
}

/** Lambda's MaximumConcurrency range for SQS event sources. */
export function parseMaxConcurrency(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (!Number.isInteger(n) || n < 2 || n > 1000) throw new Error(`expected an integer from 2 to 1000 (Lambda's range), got "${String(raw)}"`);
  return n;
}

function parseAlarmEmail(raw: unknown): string | undefined {
  const text = String(raw).trim();
  if (text === '') return undefined;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) throw new Error(`expected an e-mail address, got "${text}"`);
  return text;
}

function parseIteratorAge(raw: unknown): number {
  const ms = parseDuration(String(raw));
  if (ms === undefined || ms < 60_000) throw new Error(`expected a duration of at least 1m, got "${String(raw)}"`);
  return ms;
}

/** Every deployment setting from `context` (cdk.json context lookup); ConfigError names a bad key. */
export function readDeploymentSettings(context: (contextKey: string) => unknown): DeploymentSettings {
  const get = <T>(contextKey: string, fallback: unknown, parse: (raw: unknown) => T): T => {
    const raw = context(contextKey);
    try {
      return parse(raw === undefined || raw === null ? fallback : raw);
    } catch (error) {
      throw new ConfigError(contextKey, (error as Error).message);
    }
  };
  const k = deploymentContextKeys;
  const maxConcurrency: Record<string, number> = {};
  for (const source of eventSources) {
    if (source.kind === 'sqs' && source.maxConcurrency) {
      maxConcurrency[source.id] = get(source.maxConcurrency.contextKey, source.maxConcurrency.default, parseMaxConcurrency);
    }
  }
  const alarmEmail = get(k.alarmEmail.contextKey, k.alarmEmail.default, parseAlarmEmail);
  return {
    routeThrottles: get(k.routeThrottles.contextKey, k.routeThrottles.default, parseRouteThrottles),
    maxConcurrency,
    iteratorAgeAlarmMs: get(k.iteratorAgeAlarm.contextKey, k.iteratorAgeAlarm.default, parseIteratorAge),
    ...(alarmEmail ? { alarmEmail } : {}),
  };
}
