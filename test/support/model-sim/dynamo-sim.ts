/**
 * The model test's DynamoDB simulation (issue 40), one SDK middleware on the handlers' shared client
 * (functions/platform/clients.ts), at the build step. There the input is marshalled (the document
 * client marshals before the serializer), but a document-client command's reply comes back already
 * unmarshalled (it unmarshals right after the deserializer, below this step), while a plain command's
 * stays in AttributeValue form. So keys are compared in one canonical form, and an image from the
 * shadow is answered in the form the caller reads (`view`).
 *
 * - Shadow and stale reads. Every successful write is recorded, per table and key, as the item's
 *   image after it (read back on a side client, consistently), at a logical time: the count of
 *   writes so far. A read that does not ask `ConsistentRead` (GetItem, Query, BatchGetItem; a GSI
 *   Query always) is answered, while `lag` > 0, as of `now - lag` writes: each item the real read
 *   returned is replaced by its image then (projected), or dropped if it did not exist then; a Get or
 *   BatchGet of a key that existed then but is gone now answers the old image, and so does a Query of
 *   a whole partition (its key condition names only the partition key, no filter, no page left): a
 *   lifted mute's control items, deleted since, still show. Simplifications, said plainly: a Query
 *   with a sort-key condition, a filter or a further page does not bring back items deleted since (it
 *   would need a key-condition engine), and a FilterExpression is the real read's, on today's images.
 *   That is enough for the bug classes the issue names — an item read at an older image (a follower
 *   entry's activity bound), a control read before its lift — and keys never written while the shadow
 *   watched (none: each run's users and tags are fresh) are read as they are.
 * - Faults, only inside a job delivery (`scope`): a crash at the job's k-th DynamoDB call, before the
 *   call is sent or after it is sent but before the reply (the process is then dead: every further
 *   call of the job fails, and `settle` waits for its calls in flight); and a fault on the job's
 *   next write — a throttle, UnprocessedItems (half of a BatchWriteItem left unprocessed), or, only
 *   when asked, a conditional-check failure on a conditional write (DynamoDB never fails a condition
 *   that holds, so this one is off by default).
 */
import { type AttributeValue, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

type Image = Record<string, AttributeValue>;
type Key = Image;
export type WriteFault = 'throttle' | 'unprocessed' | 'ccf';
export interface JobScope {
  calls: number;
  crashAt?: { k: number; when: 'before' | 'after' };
  writeFault?: WriteFault;
  crashed: boolean;
}

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);
/** A key attribute's value as one string, whether marshalled ({S}, {N}) or not (a string, a wrapped number). */
function keyPart(v: unknown): string {
  if (typeof v === 'string') return `S:${v}`;
  if (v && typeof v === 'object') {
    const o = v as { S?: string; N?: string; value?: string };
    if (o.S !== undefined) return `S:${o.S}`;
    if (o.N !== undefined) return `N:${o.N}`;
    if (o.value !== undefined) return `N:${o.value}`;
  }
  return `N:${String(v)}`;
}
/** Query order: by the sort key (a number as a number), descending unless `forward`. */
function sortBySortKey(items: Image[], sortName: string, forward: boolean): void {
  const value = (i: Image) => keyPart(i[sortName]);
  const cmp = (a: string, b: string) => {
    if (a.startsWith('N:') && b.startsWith('N:')) {
      const [x, y] = [BigInt(a.slice(2)), BigInt(b.slice(2))];
      return x < y ? -1 : x > y ? 1 : 0;
    }
    return a < b ? -1 : a > b ? 1 : 0;
  };
  items.sort((a, b) => (forward ? 1 : -1) * cmp(value(a), value(b)));
}
const injected = (name: string, message: string) => Object.assign(new Error(message), { name, $fault: 'client', $metadata: {} });

export class DynamoSim {
  /** Writes back a stale read looks (0: every read as DynamoDB Local answers it). */
  lag = 0;
  /** When set, stale reads see the tables as of this logical time instead (`markNow`): a read that missed every write since. */
  asOf: number | undefined;
  /** No stale read sees earlier than this: a settle re-run was delivered, so the lag of every read before its send has passed (job-tap.ts delayedAt). */
  floor = 0;
  /** The job being delivered, when faults may hit it. */
  scope: JobScope | undefined;
  inFlight = 0;
  staleAnswers = 0;
  private now = 0;
  private readonly shadow = new Map<string, { t: number; image: Image | undefined }[]>();
  /** The keys the shadow watched, per table and partition key value (`partitionId`): a whole-partition Query's candidates. */
  private readonly partitions = new Map<string, Map<string, Key>>();

  constructor(
    private readonly side: DynamoDBClient,
    /** Key attribute names per table name. */
    private readonly keyNames: ReadonlyMap<string, readonly string[]>,
  ) {}

  install(client: DynamoDBClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const name = context.commandName ?? '';
        const input = args.input as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
        const scope = this.scope;
        // The document client marks its commands (lib-dynamodb's setFeature): their replies are unmarshalled here.
        const viaDoc = (context as { __aws_sdk_context?: { features?: Record<string, string> } }).__aws_sdk_context?.features?.DDB_MAPPER === 'd';
        this.inFlight += 1;
        try {
          if (scope) {
            if (scope.crashed) throw injected('InjectedCrash', 'the job died before this call');
            scope.calls += 1;
            if (scope.crashAt?.k === scope.calls && scope.crashAt.when === 'before') {
              scope.crashed = true;
              throw injected('InjectedCrash', `crash before call ${scope.calls} (${name})`);
            }
          }
          let result: { output: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
          const fault = scope && WRITES.has(name) ? scope.writeFault : undefined;
          if (fault) scope!.writeFault = undefined;
          if (fault === 'throttle') throw injected('ProvisionedThroughputExceededException', 'injected throttle');
          if (fault === 'ccf' && input.ConditionExpression) throw injected('ConditionalCheckFailedException', 'injected conditional-check failure');
          if (fault === 'unprocessed' && name === 'BatchWriteItemCommand') result = (await this.halfProcessed(next, args, input)) as never;
          else result = await next(args);
          if (WRITES.has(name)) await this.record(name, input);
          if (scope?.crashAt?.k === scope?.calls && scope?.crashAt?.when === 'after') {
            scope.crashed = true;
            throw injected('InjectedCrash', `crash after call ${scope.calls} (${name}) was sent`);
          }
          if (this.lag > 0 || this.asOf !== undefined)
            this.stale(name, input, result.output, viaDoc ? (i) => unmarshall(i, { wrapNumbers: true }) as Image : (i) => i);
          return result as never;
        } finally {
          this.inFlight -= 1;
        }
      },
      { step: 'build', name: 'modelDynamoSim', priority: 'high' },
    );
  }

  /** The logical time now, for `asOf`. */
  markNow(): number {
    return this.now;
  }

  /** Waits (bounded) until no call is in flight: a crashed job's other calls have failed. */
  async settle(): Promise<void> {
    for (let i = 0; i < 500 && this.inFlight > 0; i++) await new Promise((r) => setTimeout(r, 10));
    if (this.inFlight > 0) throw new Error(`${this.inFlight} DynamoDB calls still in flight after a crash`);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async halfProcessed(next: (a: any) => Promise<any>, args: any, input: Record<string, any>): Promise<unknown> {
    const [table, requests] = Object.entries(input.RequestItems as Record<string, unknown[]>)[0]!;
    if (requests.length < 2) return next(args);
    const half = Math.ceil(requests.length / 2);
    const result = await next({ ...args, input: { ...input, RequestItems: { [table]: requests.slice(0, half) } } });
    result.output.UnprocessedItems = { [table]: requests.slice(half) };
    return result;
  }

  private keyOf(table: string, image: Image): Key {
    return Object.fromEntries(this.keyNames.get(table)!.map((n) => [n, image[n]!]));
  }
  private partitionId(table: string, pkValue: unknown): string {
    return `${table}|${keyPart(pkValue)}`;
  }
  private id(table: string, key: Key): string {
    return `${table}|${this.keyNames
      .get(table)!
      .map((n) => keyPart(key[n]))
      .join('|')}`;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async record(name: string, input: Record<string, any>): Promise<void> {
    const touched: [string, Key][] = [];
    if (name === 'PutItemCommand') touched.push([input.TableName, this.keyOf(input.TableName, input.Item)]);
    if (name === 'UpdateItemCommand' || name === 'DeleteItemCommand') touched.push([input.TableName, input.Key]);
    if (name === 'BatchWriteItemCommand') {
      for (const [table, reqs] of Object.entries(input.RequestItems as Record<string, { PutRequest?: { Item: Image }; DeleteRequest?: { Key: Key } }[]>)) {
        for (const r of reqs) touched.push([table, r.PutRequest ? this.keyOf(table, r.PutRequest.Item) : r.DeleteRequest!.Key]);
      }
    }
    if (name === 'TransactWriteItemsCommand') {
      for (const t of input.TransactItems as Record<string, { TableName: string; Item?: Image; Key?: Key }>[]) {
        const op = t.Put ?? t.Update ?? t.Delete;
        if (op) touched.push([op.TableName, op.Item ? this.keyOf(op.TableName, op.Item) : op.Key!]);
      }
    }
    for (const [table, key] of touched) {
      const { Item } = await this.side.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }));
      const id = this.id(table, key);
      this.shadow.set(id, [...(this.shadow.get(id) ?? []), { t: ++this.now, image: Item }]);
      const partition = this.partitionId(table, key[this.keyNames.get(table)![0]!]);
      this.partitions.set(partition, (this.partitions.get(partition) ?? new Map<string, Key>()).set(id, key));
    }
  }

  /** The image of `key` as of `lag` writes ago: undefined if absent then, 'unknown' if never watched. */
  private imageThen(table: string, key: Key): Image | undefined | 'unknown' {
    const history = this.shadow.get(this.id(table, key));
    if (!history) return 'unknown';
    const then = Math.max(this.floor, this.asOf ?? this.now - this.lag);
    let image: Image | undefined;
    for (const h of history) if (h.t <= then) image = h.image;
    return image;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private stale(name: string, input: Record<string, any>, output: Record<string, any>, view: (image: Image) => Image): void {
    const project = (image: Image, projection: string | undefined, names: Record<string, string> | undefined): Image => {
      if (!projection) return view(image);
      const wanted = projection
        .split(',')
        .map((p) => p.trim().split(/[.[]/)[0]!)
        .map((p) => names?.[p] ?? p);
      return view(Object.fromEntries(Object.entries(image).filter(([n]) => wanted.includes(n))));
    };
    if (name === 'GetItemCommand' && !input.ConsistentRead) {
      const then = this.imageThen(input.TableName, input.Key);
      if (then === 'unknown') return;
      this.noteStale(output.Item, then && view(then));
      output.Item = then && project(then, input.ProjectionExpression, input.ExpressionAttributeNames);
    }
    if (name === 'QueryCommand' && (!input.ConsistentRead || input.IndexName)) {
      const items: Image[] = [];
      // A projection may leave the partition key out: it is the key condition's.
      const [, pkName, pkValue] = /^\s*#?(\w+)\s*=\s*(:\w+)/.exec(input.KeyConditionExpression ?? '') ?? [];
      const pk =
        pkName && input.ExpressionAttributeValues?.[pkValue!]
          ? { [input.ExpressionAttributeNames?.[`#${pkName}`] ?? pkName]: input.ExpressionAttributeValues[pkValue!] }
          : {};
      const seen = new Set<string>();
      for (const item of (output.Items ?? []) as Image[]) {
        const key = this.keyOf(input.TableName, { ...pk, ...item });
        seen.add(this.id(input.TableName, key));
        const then = input.IndexName ? 'unknown' : this.imageThen(input.TableName, key);
        if (then === 'unknown') items.push(item);
        else {
          this.noteStale(item, then && project(then, input.ProjectionExpression, input.ExpressionAttributeNames));
          if (then) items.push(project(then, input.ProjectionExpression, input.ExpressionAttributeNames));
        }
      }
      const wholePartition =
        !input.IndexName &&
        /^\s*#?\w+\s*=\s*:\w+\s*$/.test(input.KeyConditionExpression ?? '') &&
        !input.FilterExpression &&
        !input.ExclusiveStartKey &&
        !output.LastEvaluatedKey;
      if (wholePartition && pkValue) {
        // Items deleted since `then` that the partition held then: a stale read still returns them.
        let back = 0;
        for (const [id, key] of this.partitions.get(this.partitionId(input.TableName, input.ExpressionAttributeValues[pkValue])) ?? []) {
          const then = seen.has(id) ? undefined : this.imageThen(input.TableName, key);
          if (then && then !== 'unknown') {
            items.push(project(then, input.ProjectionExpression, input.ExpressionAttributeNames));
            back += 1;
          }
        }
        if (back > 0) {
          this.staleAnswers += 1;
          const sortName = this.keyNames.get(input.TableName)![1];
          if (sortName && items.every((i) => i[sortName] !== undefined)) sortBySortKey(items, sortName, input.ScanIndexForward !== false);
        }
      }
      output.Items = items;
      output.Count = items.length;
    }
    if (name === 'BatchGetItemCommand') {
      for (const [table, req] of Object.entries(
        input.RequestItems as Record<
          string,
          { Keys: Key[]; ConsistentRead?: boolean; ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> }
        >,
      )) {
        if (req.ConsistentRead) continue;
        const got = new Map(((output.Responses?.[table] ?? []) as Image[]).map((i) => [this.id(table, this.keyOf(table, i)), i]));
        const items: Image[] = [];
        for (const key of req.Keys) {
          const now = got.get(this.id(table, key));
          const then = this.imageThen(table, key);
          if (then === 'unknown') {
            if (now) items.push(now);
            continue;
          }
          this.noteStale(now, then && project(then, req.ProjectionExpression, req.ExpressionAttributeNames));
          if (then) items.push(project(then, req.ProjectionExpression, req.ExpressionAttributeNames));
        }
        output.Responses = { ...output.Responses, [table]: items };
      }
    }
  }

  private noteStale(now: Image | undefined, then: Image | undefined): void {
    if (JSON.stringify(now ?? null) !== JSON.stringify(then ?? null)) this.staleAnswers += 1;
  }
}
