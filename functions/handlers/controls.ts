/**
 * Mutes and blocks: PUT/DELETE /mutes/{userId}, GET /mutes, PUT/DELETE /blocks/{userId},
 * GET /blocks. See services/controls.ts.
 */
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { parseRequest } from '../http/parse-request.js';
import { listRequest } from '../http/schemas.js';
import type { AuthedEvent } from '../http/types.js';
import { block, listControls, mute, unblock, unmute } from '../services/controls.js';

const noContent = { statusCode: 204 };

export const handler = routes<AuthedEvent>({
  'PUT /mutes/{userId}': async (event) => {
    await mute(callerId(event), parseRequest(event, 'PUT /mutes/{userId}').path.userId);
    return noContent;
  },
  'DELETE /mutes/{userId}': async (event) => {
    await unmute(callerId(event), parseRequest(event, 'DELETE /mutes/{userId}').path.userId);
    return noContent;
  },
  'GET /mutes': async (event) => {
    const caller = callerId(event);
    const { query } = parseRequest(event, 'GET /mutes');
    return json(200, await listControls('mute', caller, listRequest(query)));
  },
  'PUT /blocks/{userId}': async (event) => {
    await block(callerId(event), parseRequest(event, 'PUT /blocks/{userId}').path.userId);
    return noContent;
  },
  'DELETE /blocks/{userId}': async (event) => {
    await unblock(callerId(event), parseRequest(event, 'DELETE /blocks/{userId}').path.userId);
    return noContent;
  },
  'GET /blocks': async (event) => {
    const caller = callerId(event);
    const { query } = parseRequest(event, 'GET /blocks');
    return json(200, await listControls('block', caller, listRequest(query)));
  },
});
