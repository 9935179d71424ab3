/** A WebSocket opened or closed: the user's connection item in the connected set (model/connection.ts). */
import type { Connection } from '../../model/connection.js';
import { deleteConnection, putConnection } from '../../stores/connection-store.js';

import { askStampOnConnect } from '../reader-activity/ask.js';

/** Connected, the user is reading: their follows' copies must reach them (reader-activity/). */
export async function connect(c: Connection): Promise<void> {
  await Promise.all([putConnection(c), askStampOnConnect(c.userId)]);
}

export const disconnect = (c: Connection): Promise<void> => deleteConnection(c);
