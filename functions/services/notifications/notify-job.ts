import * as z from 'zod';
import { NOTIFICATION_KINDS } from '../../model/notification.js';
import { defineJob } from '../jobs/define.js';
import { userId } from '../jobs/fields.js';

/** A notification event on the wire (model/notification.ts NotificationEvent; ticks as a string). */
export const notificationEventSchema = z.object({
  // Absent in jobs queued before kinds existed: then the verb says (model/notification.ts kindOfVerb).
  kind: z.enum(NOTIFICATION_KINDS).optional(),
  verb: z.string().min(1).max(64),
  object: z.string().min(1).max(2048),
  actor: userId,
  id: z.string().min(1).max(4096),
  ticks: z.string().regex(/^\d{1,20}$/),
  source: z.string().min(1).max(2048).optional(),
});
export type WireNotificationEvent = z.infer<typeof notificationEventSchema>;
/** Events per notify job: their claims and the group fit one transaction (100 items). */
export const MAX_JOB_EVENTS = 20;

/** Apply notification events to one recipient's groups (batch.ts; a batch's jobs are folded: fold.ts). */
export const notifyJob = defineJob('notify', {
  schema: { recipient: userId, events: z.array(notificationEventSchema).min(1).max(MAX_JOB_EVENTS) },
});
