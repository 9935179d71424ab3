/**
 * The SDK's logger middleware builds a redacted copy of every request and response for its logger
 * even when the logger does nothing (it evaluates the arguments of a no-op `logger.info`): on a
 * 25-item BatchWriteItem or a 1,000-record GetRecords that walk costs more CPU than the call
 * itself. tickfeed logs through Powertools, never through the SDK's logger, so its clients drop it.
 */
interface HasMiddlewareStack {
  readonly middlewareStack: { remove(name: string): boolean };
}

export function withoutSdkLogging<C extends HasMiddlewareStack>(client: C): C {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
