/** A WebSocket opened or closed: the user's connection item in the connected set (model/connection.ts). */
import type { Connection } from '../../model/connection.js';
import { deleteConnection, putConnection } from '../../stores/connection-store.js';

export const connect = (c: Connection): Promise<void> => putConnection(c);

export const disconnect = (c: Connection): Promise<void> => deleteConnection(c);
