/** Mutes and blocks: mute, unmute, list mutes; block, unblock, list blocks. See services/mutes-blocks.ts. */
import { json, routes } from '../http/handler.js';
import { listRequest } from '../http/schemas.js';
import { block, listControls, mute, unblock, unmute } from '../services/mutes-blocks.js';

const noContent = { statusCode: 204 };

export const handler = routes('controls', {
  mute: async ({ caller, path }) => {
    await mute(caller.userId, path.userId);
    return noContent;
  },
  unmute: async ({ caller, path }) => {
    await unmute(caller.userId, path.userId);
    return noContent;
  },
  listMutes: async ({ caller, query }) => json(200, await listControls('mute', caller.userId, listRequest(query))),
  block: async ({ caller, path }) => {
    await block(caller.userId, path.userId);
    return noContent;
  },
  unblock: async ({ caller, path }) => {
    await unblock(caller.userId, path.userId);
    return noContent;
  },
  listBlocks: async ({ caller, query }) => json(200, await listControls('block', caller.userId, listRequest(query))),
});
