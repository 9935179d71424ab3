/** Local physical names of the shared definitions' resources. */
import { appName, type QueueId, type TableId } from '../lib/defs/index.js';

export const localTableName = (id: TableId): string => `${appName}-${id}`;
export const localQueueName = (id: QueueId): string => `${appName}-${id}`;
