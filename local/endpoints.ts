/**
 * Where a running local stack listens (its ports are picked at start), for tools run beside it:
 * `npm start` writes `endpoints.json` into the data directory and removes it on exit;
 * `npm run redrive` reads it to reach the same DynamoDB Local and SQS server and to run handlers
 * with the same env.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LocalStack } from './stack.js';

/** What a stack tells the tools beside it: its coordinates and env (see LocalStack), and its PID. */
export type LocalEndpoints = Pick<LocalStack, 'apiUrl' | 'dynamoEndpoint' | 'sqsEndpoint' | 'tableNames' | 'queueUrls' | 'env'> & {
  readonly pid: number;
};

export function writeEndpoints(file: string, stack: LocalStack): void {
  const endpoints: LocalEndpoints = {
    apiUrl: stack.apiUrl,
    dynamoEndpoint: stack.dynamoEndpoint,
    sqsEndpoint: stack.sqsEndpoint,
    tableNames: stack.tableNames,
    queueUrls: stack.queueUrls,
    env: stack.env,
    pid: process.pid,
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(endpoints, null, 2));
}

export function readEndpoints(file: string): LocalEndpoints {
  if (!existsSync(file)) throw new Error(`${file} not found: is \`npm start\` running? (or pass --endpoints <file>)`);
  const endpoints = JSON.parse(readFileSync(file, 'utf8')) as LocalEndpoints;
  for (const url of [endpoints.dynamoEndpoint, endpoints.sqsEndpoint]) {
    if (!url.startsWith('http://127.0.0.1:')) throw new Error(`refusing non-local endpoint ${url} from ${file}`);
  }
  return endpoints;
}

export const removeEndpoints = (file: string) => rmSync(file, { force: true });
