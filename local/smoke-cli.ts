/**
 * `npm run smoke -- --url <api url> --token-cmd '<command printing a token>'` — after a deploy (or
 * against `npm start`), checks that the API works end to end (local/smoke.ts) and says which step
 * failed. Instead of --url, `--outputs cdk-outputs.json` reads the stack's ApiUrl from the file
 * `npx cdk deploy --outputs-file cdk-outputs.json` writes.
 * The token command runs once per role (author, reader) with `{role}` replaced by the role and
 * TICKFEED_SMOKE_ROLE set to it; it must print a bearer token (its last line), of a different user
 * for each role. Exit status: 0 passed, 1 a step failed (named), 2 bad usage.
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type Role, runSmoke, SmokeFailure } from './smoke.js';

const usage = `usage: npm run smoke -- (--url <api url> | --outputs <cdk outputs file>) --token-cmd '<command printing a token for {role}>' [--timeout <seconds>]
  e.g. against npm start:  npm run smoke -- --url http://127.0.0.1:3000 --token-cmd 'npm run -s token -- smoke-{role}'`;

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      url: { type: 'string' },
      outputs: { type: 'string' },
      'token-cmd': { type: 'string' },
      timeout: { type: 'string', default: '30' },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const url = values.url ?? (values.outputs ? apiUrlFrom(values.outputs) : fail('give --url or --outputs'));
const tokenCmd = values['token-cmd'] ?? fail('give --token-cmd');
const timeoutS = Number(values.timeout);
if (!Number.isFinite(timeoutS) || timeoutS <= 0) fail(`--timeout: expected seconds, got "${values.timeout}"`);

/** The ApiUrl output of the (only, or first) stack in a `cdk deploy --outputs-file` file. */
function apiUrlFrom(file: string): string {
  const outputs = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
  const found = Object.values(outputs).find((stack) => stack.ApiUrl)?.ApiUrl;
  return found ?? fail(`${file} has no ApiUrl output`);
}

function tokenFor(role: Role): Promise<string> {
  const output = execSync(tokenCmd.replaceAll('{role}', role), {
    env: { ...process.env, TICKFEED_SMOKE_ROLE: role },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const token = output.trim().split('\n').at(-1)?.trim();
  if (!token) throw new Error(`the token command printed nothing for ${role}`);
  return Promise.resolve(token);
}

console.log(`smoke test of ${url}`);
try {
  await runSmoke({
    url: url.replace(/\/$/, ''),
    tokenFor,
    timeoutMs: timeoutS * 1000,
    onStep: (step, ms) => console.log(`  ✓ ${step} (${ms} ms)`),
  });
  console.log('smoke: passed');
} catch (error) {
  if (!(error instanceof SmokeFailure)) throw error;
  console.error(`  ✗ ${error.step}\nsmoke: FAILED at step "${error.step}": ${error.message}`);
  process.exit(1);
}
