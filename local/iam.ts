/**
 * The local stand-in for the functions' IAM roles: while a handler runs (local/handlers.ts tags
 * its invocation with the function id), every DynamoDB and SQS call it makes must be one its
 * definition grants (lib/defs/functions.ts: the exact DynamoDB actions per table, the queues it
 * sends to) — otherwise it fails as AWS would, with AccessDeniedException. So every local run and
 * every integration test checks that the grants the stack deploys are enough; the template tests
 * check that they are no more. Calls made outside any invocation (tests, tools) are not checked.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type FunctionId, functions, type QueueId, queues, type TableId, tables } from '../lib/defs/index.js';

const invocation = new AsyncLocalStorage<FunctionId>();

/** Runs `fn` as an invocation of function `id` (its calls are checked against its grants). */
export const runAs = <T>(id: FunctionId, fn: () => T): T => invocation.run(id, fn);

/** The function whose invocation the caller runs in (undefined outside any): lets a meter keep one function's calls apart. */
export const currentFunction = (): FunctionId | undefined => invocation.getStore();

export interface Access {
  readonly action: string;
  readonly table: string;
}

type Input = Record<string, unknown>;
const tableOf = (input: Input) => String(input.TableName);

/**
 * The IAM actions a DynamoDB call needs, per table (`dynamodb:` omitted). A transaction needs the
 * per-item action of each item; a Query or Scan of an index needs the index (never granted).
 */
/** Document-client command names → the DynamoDB operation they send. */
const DOC_COMMANDS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactWrite: 'TransactWriteItems',
  TransactGet: 'TransactGetItems',
};

export function dynamoAccessOf(command: string, input: Input): Access[] {
  const bare = command.replace(/Command$/, '');
  const name = DOC_COMMANDS[bare] ?? bare;
  switch (name) {
    case 'GetItem':
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [{ action: name, table: tableOf(input) }];
    case 'Query':
    case 'Scan':
      return [{ action: name, table: input.IndexName ? `${tableOf(input)}/index/${String(input.IndexName)}` : tableOf(input) }];
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.keys((input.RequestItems ?? {}) as Input).map((table) => ({ action: name, table }));
    case 'TransactWriteItems':
    case 'TransactGetItems': {
      const perItem: Record<string, string> = {
        Put: 'PutItem',
        Update: 'UpdateItem',
        Delete: 'DeleteItem',
        ConditionCheck: 'ConditionCheckItem',
        Get: 'GetItem',
      };
      return ((input.TransactItems ?? []) as Input[]).flatMap((item) =>
        Object.entries(item).map(([kind, op]) => ({ action: perItem[kind] ?? kind, table: tableOf(op as Input) })),
      );
    }
    default:
      return [{ action: name, table: tableOf(input) }];
  }
}

function denied(fn: FunctionId, action: string, resource: string): Error {
  return Object.assign(new Error(`local IAM: function ${fn} is not authorized to perform: ${action} on resource: ${resource} (see lib/defs/functions.ts)`), {
    name: 'AccessDeniedException',
    $fault: 'client',
  });
}

/** Table id of a physical table name, from the env the functions get. */
function tableIdOf(name: string, env: NodeJS.ProcessEnv): TableId | undefined {
  return (Object.keys(tables) as TableId[]).find((id) => env[tables[id].envVar] === name);
}

/** Throws AccessDeniedException unless function `fn` may make this DynamoDB call. */
export function checkDynamoCall(fn: FunctionId, command: string, input: Input, env: NodeJS.ProcessEnv = process.env): void {
  for (const { action, table } of dynamoAccessOf(command, input)) {
    const id = tableIdOf(table, env);
    const granted = id === undefined ? undefined : functions[fn].tables[id];
    if (!granted || !(granted as readonly string[]).includes(action)) throw denied(fn, `dynamodb:${action}`, `table/${table}`);
  }
}

/** Throws AccessDeniedException unless function `fn` may send to the queue at `queueUrl`. */
export function checkSqsCall(fn: FunctionId, command: string, input: Input, env: NodeJS.ProcessEnv = process.env): void {
  const name = command.replace(/Command$/, '');
  const url = String(input.QueueUrl);
  const id = (Object.keys(queues) as QueueId[]).find((q) => env[queues[q].envVar] === url);
  const sends = name === 'SendMessage' || name === 'SendMessageBatch';
  if (!sends || id === undefined || !functions[fn].sendsTo.includes(id)) throw denied(fn, `sqs:${name}`, url);
}

/** Throws AccessDeniedException unless function `fn` may use the realtime API's `@connections` (its `realtime.pushes`). */
export function checkManageConnections(fn: FunctionId, command: string): void {
  if (!functions[fn].realtime?.pushes) throw denied(fn, 'execute-api:ManageConnections', `@connections (${command.replace(/Command$/, '')})`);
}

type Next = (args: { input: unknown }) => Promise<unknown>;
type Middleware = (next: Next, context: { commandName?: string }) => Next;
/** An SDK client (its middleware stack's many overloads, narrowed to the one used here). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type MiddlewareClient = { middlewareStack: { add: (mw: any, opts: { step: 'initialize'; name: string }) => void } };

const installed = new WeakSet<object>();

/** Adds the checks to the functions' SDK clients (once per client). */
export function enforceGrants(clients: { dynamo?: MiddlewareClient; sqs?: MiddlewareClient; management?: MiddlewareClient }): void {
  const add = (client: MiddlewareClient | undefined, check: typeof checkDynamoCall, name: string) => {
    if (!client) return;
    if (installed.has(client)) return;
    installed.add(client);
    const mw: Middleware = (next, context) => async (args) => {
      const fn = invocation.getStore();
      if (fn !== undefined) check(fn, context.commandName ?? '', args.input as Input);
      return next(args);
    };
    client.middlewareStack.add(mw, { step: 'initialize', name });
  };
  add(clients.dynamo, checkDynamoCall, 'localIamDynamo');
  add(clients.management, (fn, command) => checkManageConnections(fn, command), 'localIamManageConnections');
  add(clients.sqs, checkSqsCall, 'localIamSqs');
}
