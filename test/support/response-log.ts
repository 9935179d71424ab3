/**
 * Every response the integration helper `api()` receives is checked against the OpenAPI document
 * (response-check.ts). Violations are kept for this test file (`violationsHere()`) and appended to
 * one log for the whole test run (`violationsThisRun()`), so test/integration/
 * response-conformance.test.ts can assert that none was seen — by its own flows, and by every
 * file of the run that got there before it.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect, inject } from 'vitest';
import { openApiDocument } from '../../functions/http/openapi-document.js';
import { responseChecker, type SeenResponse } from './response-check.js';

export interface Violation {
  readonly file: string;
  readonly test: string;
  readonly message: string;
}

// The run's signing key is made fresh by the global setup: it names this run's log.
const runId = createHash('sha256')
  .update(JSON.stringify(inject('localStack').publicJwk))
  .digest('hex')
  .slice(0, 16);
const runLog = join(tmpdir(), 'tickfeed-response-check', `${runId}.jsonl`);

let check: ((res: SeenResponse) => string[]) | undefined;
const here: Violation[] = [];
let checked = 0;

export function recordResponse(res: SeenResponse): void {
  check ??= responseChecker(openApiDocument());
  checked++;
  const state = expect.getState();
  for (const message of check(res)) {
    const v: Violation = { file: basename(state.testPath ?? '?'), test: state.currentTestName ?? '?', message };
    here.push(v);
    mkdirSync(join(runLog, '..'), { recursive: true });
    appendFileSync(runLog, `${JSON.stringify(v)}\n`);
  }
}

/** Responses checked in this test file so far. */
export const responsesChecked = () => checked;

/** Violations seen in this test file so far. */
export const violationsHere = (): Violation[] => [...here];

/** Violations seen in this test run so far, by any test file. */
export function violationsThisRun(): Violation[] {
  if (!existsSync(runLog)) return [];
  return readFileSync(runLog, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Violation);
}
