/**
 * Calls through @tickfeed/client: `dataOf` turns its `{ data, error, response }` into the data or
 * a TickfeedApiError, and `laterRoutes` views the same client with routes its generated types
 * (client/src/schema.d.ts) do not hold yet.
 *
 * NOTE for the lead: the notification routes below are typed here by hand from their contract.
 * Once they are in the route table and `npm run client:generate` has picked them up, delete
 * `NotificationRoutes` and `laterRoutes` and call `client.GET('/notifications', …)` directly.
 */
import { TickfeedApiError, type TickfeedClient } from '@tickfeed/client';
import type { Client } from 'openapi-fetch';

/** The data of a 2xx answer (undefined for a 204); anything else throws a TickfeedApiError. */
export async function dataOf<T>(label: string, call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new TickfeedApiError(response.status, label, error);
  return data as T;
}

export interface NotificationGroup {
  id: string;
  verb: string;
  object: string;
  actorCount: number;
  actors: string[];
  activityCount: number;
  updatedAt: string;
  seen: boolean;
  read: boolean;
}

export interface NotificationCounts {
  unseen: number;
  unread: number;
}

type Json<T> = { content: { 'application/json': T } };
type NoContent = { content?: never };
type Mark = {
  post: {
    parameters: { query?: never; path?: never };
    /** Some groups by id, or (no body) all of them. */
    requestBody?: Json<{ ids: string[] }>;
    responses: { 204: NoContent };
  };
};

/** The notification routes' contract (GET /notifications, /counts; POST /seen, /read → 204). */
export interface NotificationRoutes {
  '/notifications': {
    get: {
      parameters: { query?: { limit?: string; before?: string }; path?: never };
      responses: { 200: Json<NotificationCounts & { items: NotificationGroup[]; lastRangeKey: string | null }> };
    };
  };
  '/notifications/counts': {
    get: { parameters: { query?: never; path?: never }; responses: { 200: Json<NotificationCounts> } };
  };
  '/notifications/seen': Mark;
  '/notifications/read': Mark;
}

/** The same client (its auth middleware included), typed for routes newer than its schema. */
export const laterRoutes = (client: TickfeedClient) => client as unknown as Client<NotificationRoutes>;
