/**
 * `npm run token -- <userId>... [--scope <scope>]... [--expires-in 12h]`: prints one bearer JWT
 * the local API accepts per user id, one per line, in order. `--scope tickfeed/admin` mints the
 * backend's kind of token (the scopes go space-separated into the `scope` claim, as Cognito does).
 */
import { parseArgs } from 'node:util';
import { isValidUserId, USER_ID_RULE } from '../functions/model/user-id.js';
import { loadOrCreateKeys, mintToken } from './jwt.js';
import { keysFile } from './paths.js';

const usage = 'usage: npm run token -- <userId>... [--scope <scope>]... [--expires-in 12h]';
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { 'expires-in': { type: 'string', default: '12h' }, scope: { type: 'string', multiple: true, default: [] } },
  });
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const { positionals: userIds, values } = parsed;
if (userIds.length === 0) {
  console.error(usage);
  process.exit(2);
}
const invalid = userIds.find((id) => !isValidUserId(id));
if (invalid !== undefined) {
  console.error(`not a valid user id (${USER_ID_RULE}): ${JSON.stringify(invalid)}`);
  process.exit(2);
}
const keys = await loadOrCreateKeys(keysFile);
for (const userId of userIds) {
  console.log(await mintToken(keys, userId, { expiresIn: values['expires-in'], scope: values.scope }));
}
