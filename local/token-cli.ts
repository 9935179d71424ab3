/** `npm run token -- <userId> [--expires-in 12h]`: prints a bearer JWT the local API accepts. */
import { parseArgs } from 'node:util';
import { loadOrCreateKeys, mintToken } from './jwt.js';
import { keysFile } from './paths.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { 'expires-in': { type: 'string', default: '12h' } },
});
const userId = positionals[0];
if (!userId) {
  console.error('usage: npm run token -- <userId> [--expires-in 12h]');
  process.exit(2);
}
console.log(await mintToken(await loadOrCreateKeys(keysFile), userId, { expiresIn: values['expires-in'] }));
