/** Calls through @tickfeed/client: `dataOf` turns its `{ data, error, response }` into the data or a TickfeedApiError. */
import { type components, TickfeedApiError } from '@tickfeed/client';

/** The data of a 2xx answer (undefined for a 204); anything else throws a TickfeedApiError. */
export async function dataOf<T>(label: string, call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new TickfeedApiError(response.status, label, error);
  return data as T;
}

export type NotificationGroup = components['schemas']['NotificationGroup'];
