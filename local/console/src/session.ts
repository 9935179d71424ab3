/**
 * Signing in: the local stack mints the tokens (GET /console/token, local/console-site.ts), so
 * any user id works. A user token for everything but the rollups view and other users' activity
 * windows, which need the tickfeed/admin scope: that token is minted on first use.
 */
import { createTickfeedClient, type TickfeedClient } from '@tickfeed/client';

export interface Session {
  readonly user: string;
  /** Acts as `user`. */
  readonly client: TickfeedClient;
  /** Acts as `user` with the tickfeed/admin scope (rollups, anyone's activity window). */
  readonly admin: TickfeedClient;
  /** `user`'s token, for what the client does not call: the realtime WebSocket (live.ts). */
  readonly token: () => Promise<string>;
}

/** Minted tokens live 12 h; ask for a new one well before. */
const TOKEN_REUSE_MS = 60 * 60 * 1000;

export function signIn(user: string): Session {
  const baseUrl = window.location.origin;
  const token = tokenSource(user, false);
  return {
    user,
    client: createTickfeedClient({ baseUrl, token }),
    admin: createTickfeedClient({ baseUrl, token: tokenSource(user, true) }),
    token,
  };
}

/** A token function for the client: fetches once, then reuses the token for an hour. */
function tokenSource(user: string, admin: boolean): () => Promise<string> {
  let current: { token: Promise<string>; until: number } | undefined;
  return () => {
    if (!current || Date.now() > current.until) {
      const token = mint(user, admin);
      current = { token, until: Date.now() + TOKEN_REUSE_MS };
      token.catch(() => (current = undefined)); // a failed mint is retried by the next call
    }
    return current.token;
  };
}

async function mint(user: string, admin: boolean): Promise<string> {
  const query = new URLSearchParams({ user, ...(admin ? { admin: '1' } : {}) });
  const res = await fetch(`${import.meta.env.BASE_URL}token?${query}`);
  const body = (await res.json().catch(() => ({}))) as { token?: string; message?: string };
  if (!res.ok || !body.token) throw new Error(`signing in as ${user} failed: ${body.message ?? res.status}`);
  return body.token;
}

/** What the API cannot say: the rollup series this stack is configured with. */
export interface ConsoleConfig {
  readonly series: readonly string[];
}

export async function loadConfig(): Promise<ConsoleConfig> {
  const res = await fetch(`${import.meta.env.BASE_URL}config.json`);
  if (!res.ok) throw new Error(`reading the console's config failed: ${res.status}`);
  return (await res.json()) as ConsoleConfig;
}
