/**
 * Runs in every test worker before the test file: points the worker's env at the local stack, so
 * handler and core modules imported by tests talk to the same DynamoDB Local and SQS server.
 */
import { inject } from 'vitest';

const stack = inject('localStack');
Object.assign(process.env, stack.env);
