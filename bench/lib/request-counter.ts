/**
 * Counts the AWS requests the code makes, by attaching a middleware to the SDK clients the
 * handlers use (nothing in the handlers changes). Used for the cost estimate.
 *
 * DynamoDB: every request gets ReturnConsumedCapacity=INDEXES and the capacity dynalite reports is
 * added up (dynalite computes it by DynamoDB's rules: 1 WRU per started KB written, 1 RRU per
 * started 4 KB read strongly consistent, half that eventually consistent). Two gaps are filled here:
 * dynalite reports nothing for a refused conditional write, which DynamoDB charges like a write
 * (counted as max(1, item size)), and it does not report global-secondary-index writes (an item
 * that carries gsi1pk is written to the index too, projection ALL: counted by item size). An
 * UpdateItem is asked for ALL_NEW (when the caller asked for nothing, and the attributes are taken
 * out of the answer again): an item that carries an index key after the update is written to that
 * index too (projection ALL: any attribute change rewrites the index copy), counted by its size.
 *
 * Scopes: `this.inScope('delivery-events', fn)` files every request made inside fn (async
 * context) under that scope too, so a run can say which function wrote what.
 *
 * SQS: requests by action, and billed requests (every started 64 KiB of payload is one request).
 *
 * Per-item writes (`trackKeyWrites()`, off by default: it keeps one entry per item written): every
 * write request's item key (table, pk, sk; each item of a BatchWriteItem; a refused conditional
 * write too, since DynamoDB charges it against the same partition) and the index copy it makes
 * (`table/gsiN` and the index key), counted per calendar second, so `hotKeys()` can say which single
 * items take the most writes per second: a partition accepts at most 1,000 WCU/s (docs/SCALE.md).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';

type AttributeValue = Record<string, unknown>;

export interface DynamoOperationCount {
  calls: number;
  refusedConditions: number;
  writeUnits: number;
  readUnits: number;
}

export interface SqsOperationCount {
  calls: number;
  billedRequests: number;
  messages: number;
  payloadBytes: number;
}

/** Writes to one item key (or one index key), from `hotKeys()`. */
export interface KeyWrites {
  /** `table pk | sk` (index copies: `table/gsi1 gsi1pk | gsi1sk`); a partition: `table pk` alone. */
  key: string;
  /** Every item of one partition key together (what DynamoDB's 1,000 WCU/s per partition limits). */
  partition: boolean;
  /** The key's class, `table pkPrefix/skPrefix` as in `RequestCounts.dynamodb`. */
  kind: string;
  writes: number;
  writeUnits: number;
  refused: number;
  /** Most writes (and write units) in one calendar second. */
  peakWritesPerSecond: number;
  peakUnitsPerSecond: number;
  /** Seconds from the key's first to its last write (0 for one write). */
  activeSeconds: number;
}

interface KeyTally {
  kind: string;
  partition: boolean;
  writes: number;
  writeUnits: number;
  refused: number;
  firstAt: number;
  lastAt: number;
  perSecond: Map<number, { writes: number; units: number }>;
}

export interface RequestCounts {
  /** Keyed `Operation table pkPrefix/skPrefix`, e.g. `PutItem messaging LEDGER/R`. */
  dynamodb: Record<string, DynamoOperationCount>;
  sqs: Record<string, SqsOperationCount>;
  /** The same DynamoDB requests per scope (requests outside any scope: `other`). */
  dynamodbByScope: Record<string, Record<string, DynamoOperationCount>>;
}

const emptyCounts = (): RequestCounts => ({ dynamodb: {}, sqs: {}, dynamodbByScope: {} });
const hasIndexKey = (item: Record<string, unknown> | undefined) => item !== undefined && Object.keys(item).some((name) => /^gsi\d+pk$/.test(name));

/** DynamoDB's item size rules (attribute names + values), close enough for capacity units. */
function valueSize(value: AttributeValue): number {
  const [type, inner] = Object.entries(value)[0] ?? ['NULL', true];
  switch (type) {
    case 'S':
      return Buffer.byteLength(String(inner));
    case 'N': {
      const digits = String(inner).replace(/^-/, '').replace('.', '').replace(/^0+/, '');
      return Math.ceil(Math.max(1, digits.length) / 2) + 1;
    }
    case 'B':
      return (inner as Uint8Array).byteLength ?? 0;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
    case 'NS':
    case 'BS':
      return (inner as unknown[]).reduce<number>((sum, member) => sum + valueSize({ [type.slice(0, 1)]: member }), 0);
    case 'L':
      return 3 + (inner as AttributeValue[]).reduce<number>((sum, member) => sum + 1 + valueSize(member), 0);
    case 'M':
      return 3 + itemSize(inner as Record<string, AttributeValue>) + Object.keys(inner as object).length;
    default:
      return 0;
  }
}

export function itemSize(item: Record<string, AttributeValue>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += Buffer.byteLength(name) + valueSize(value);
  return size;
}

const writeUnitsOf = (item: Record<string, AttributeValue> | undefined) => Math.max(1, Math.ceil((item ? itemSize(item) : 0) / 1024));

const stringOf = (value: unknown): string =>
  typeof value === 'object' && value !== null ? String((value as { S?: unknown; N?: unknown }).S ?? (value as { N?: unknown }).N ?? '') : '';

/** An item's full key (`table pk | sk`), or for an index copy `table/gsiN gsiNpk | gsiNsk`. */
const fullKey = (table: string, item: Record<string, AttributeValue>, index?: string): string => {
  const pk = stringOf(item[index ? `${index}pk` : 'pk']);
  const sk = item[index ? `${index}sk` : 'sk'];
  return `${table.replace(/^local-/, '')}${index ? `/${index}` : ''} ${pk}${sk === undefined ? '' : ` | ${stringOf(sk)}`}`;
};

const indexesOf = (item: Record<string, unknown> | undefined): string[] =>
  item === undefined ? [] : Object.keys(item).flatMap((name) => (/^gsi\d+pk$/.test(name) ? [name.slice(0, -2)] : []));

const prefixOf = (value: unknown): string => {
  const text = typeof value === 'object' && value !== null ? String((value as { S?: unknown }).S ?? '') : '';
  return text.split('#')[0] ?? '';
};

const keyLabel = (table: string, key: Record<string, AttributeValue> | undefined): string => {
  if (!key) return table;
  const pk = prefixOf(key.pk);
  const sk = key.sk === undefined ? '' : `/${prefixOf(key.sk)}`;
  return `${table.replace(/^local-/, '')} ${pk}${sk}`;
};

interface CapacityEntry {
  TableName?: string;
  CapacityUnits?: number;
  WriteCapacityUnits?: number;
  ReadCapacityUnits?: number;
}

export class RequestCounter {
  private counts: RequestCounts = emptyCounts();
  private readonly scopes = new AsyncLocalStorage<string>();
  private keyWrites: Map<string, KeyTally> | undefined;

  /** Counts writes per item key from now on (see `hotKeys`); reset() clears them. */
  trackKeyWrites(): void {
    this.keyWrites = new Map();
  }

  /** The `top` keys (items and partitions) by most writes in one second (ties: most writes in all). */
  hotKeys(top = 20): KeyWrites[] {
    const rows: KeyWrites[] = [];
    for (const [key, tally] of this.keyWrites ?? []) {
      let peakWrites = 0;
      let peakUnits = 0;
      for (const second of tally.perSecond.values()) {
        peakWrites = Math.max(peakWrites, second.writes);
        peakUnits = Math.max(peakUnits, second.units);
      }
      rows.push({
        key,
        partition: tally.partition,
        kind: tally.kind,
        writes: tally.writes,
        writeUnits: tally.writeUnits,
        refused: tally.refused,
        peakWritesPerSecond: peakWrites,
        peakUnitsPerSecond: peakUnits,
        activeSeconds: (tally.lastAt - tally.firstAt) / 1000,
      });
    }
    return rows.sort((a, b) => b.peakWritesPerSecond - a.peakWritesPerSecond || b.writes - a.writes).slice(0, top);
  }

  private noteKeyWrite(key: string, kind: string, units: number, refused: boolean, partition = false): void {
    if (!this.keyWrites) return;
    const now = Date.now();
    let tally = this.keyWrites.get(key);
    if (!tally) this.keyWrites.set(key, (tally = { kind, partition, writes: 0, writeUnits: 0, refused: 0, firstAt: now, lastAt: now, perSecond: new Map() }));
    tally.writes += 1;
    tally.writeUnits += units;
    if (refused) tally.refused += 1;
    tally.lastAt = now;
    const second = Math.floor(now / 1000);
    const bucket = tally.perSecond.get(second) ?? { writes: 0, units: 0 };
    bucket.writes += 1;
    bucket.units += units;
    tally.perSecond.set(second, bucket);
  }

  /** Files one write request's items (and their index copies) under their keys. */
  private noteItemWrites(
    operation: string,
    input: Record<string, any>,
    output: { Attributes?: Record<string, AttributeValue>; ConsumedCapacity?: unknown } | undefined,
    units: number,
    refused: boolean,
  ): void {
    if (!this.keyWrites) return;
    const note = (table: string, item: Record<string, AttributeValue>, itemUnits: number, indexSource?: Record<string, AttributeValue>) => {
      const itemKey = fullKey(table, item);
      this.noteKeyWrite(itemKey, keyLabel(table, item), itemUnits, refused);
      this.noteKeyWrite(itemKey.split(' | ')[0]!, keyLabel(table, { pk: item.pk! }), itemUnits, refused, true);
      if (refused) return;
      for (const index of indexesOf(indexSource)) {
        const indexKey = fullKey(table, indexSource!, index);
        this.noteKeyWrite(indexKey, `${keyLabel(table, item)} (${index})`, writeUnitsOf(indexSource), false);
        this.noteKeyWrite(indexKey.split(' | ')[0]!, `${keyLabel(table, item)} (${index})`, writeUnitsOf(indexSource), false, true);
      }
    };
    if (operation === 'BatchWriteItem') {
      for (const [table, requests] of Object.entries(input.RequestItems ?? {}) as Array<[string, any[]]>) {
        for (const request of requests) {
          const item = (request.PutRequest?.Item ?? request.DeleteRequest?.Key) as Record<string, AttributeValue> | undefined;
          if (item) note(table, item, request.PutRequest ? writeUnitsOf(item) : 1, request.PutRequest?.Item);
        }
      }
      return;
    }
    const table = String(input.TableName ?? '?');
    const key = (input.Key ?? input.Item) as Record<string, AttributeValue> | undefined;
    if (!key) return;
    const after = operation === 'PutItem' ? input.Item : operation === 'UpdateItem' && input.ReturnValues === 'ALL_NEW' ? output?.Attributes : undefined;
    note(table, key, refused ? writeUnitsOf(input.Item) : Math.max(1, units), after);
  }

  /** Runs `work` with every request it makes also counted under `scope`. */
  inScope<T>(scope: string, work: () => T): T {
    return this.scopes.run(scope, work);
  }

  reset(): void {
    this.counts = emptyCounts();
    if (this.keyWrites) this.keyWrites = new Map();
  }

  snapshot(): RequestCounts {
    return JSON.parse(JSON.stringify(this.counts)) as RequestCounts;
  }

  private dynamoEntries(label: string): DynamoOperationCount[] {
    const scope = (this.counts.dynamodbByScope[this.scopes.getStore() ?? 'other'] ??= {});
    const fresh = (): DynamoOperationCount => ({ calls: 0, refusedConditions: 0, writeUnits: 0, readUnits: 0 });
    return [(this.counts.dynamodb[label] ??= fresh()), (scope[label] ??= fresh())];
  }

  private sqsEntry(action: string): SqsOperationCount {
    return (this.counts.sqs[action] ??= { calls: 0, billedRequests: 0, messages: 0, payloadBytes: 0 });
  }

  attachDynamoDb(client: DynamoDBClient): void {
    // Ask for capacity before the (document client's) marshalling and serialization.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as Record<string, unknown>;
        const operation = String(context.commandName ?? '').replace(/Command$/, '');
        const askNew = operation === 'UpdateItem' && (input.ReturnValues === undefined || input.ReturnValues === 'NONE');
        const result = await next({ ...args, input: { ...input, ReturnConsumedCapacity: 'INDEXES', ...(askNew ? { ReturnValues: 'ALL_NEW' } : {}) } });
        // The caller asked for no attributes: it gets none.
        if (askNew) delete (result.output as unknown as Record<string, unknown>).Attributes;
        return result;
      },
      { step: 'initialize', name: 'benchRequestCapacity', priority: 'high', override: true },
    );
    // Serialized input (AttributeValues) is visible from the build step on.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const operation = String(context.commandName ?? 'Unknown').replace(/Command$/, '');
        const input = args.input as Record<string, any>;
        const isWrite = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/.test(operation);
        let label: string;
        let gsiWriteUnits = 0;
        if (operation === 'BatchWriteItem') {
          const [table, requests] = (Object.entries(input.RequestItems ?? {})[0] ?? ['?', []]) as [string, any[]];
          const first = requests[0]?.PutRequest?.Item ?? requests[0]?.DeleteRequest?.Key;
          label = `${operation} ${keyLabel(table, first)}`;
          for (const request of requests) {
            const item = request.PutRequest?.Item as Record<string, AttributeValue> | undefined;
            if (item?.gsi1pk) gsiWriteUnits += writeUnitsOf(item);
          }
        } else {
          label = `${operation} ${keyLabel(String(input.TableName ?? '?'), input.Key ?? input.Item ?? undefined)}`;
          if (operation === 'Query')
            label = `${operation} ${String(input.TableName ?? '?').replace(/^local-/, '')}${input.IndexName ? `/${input.IndexName}` : ''} ${String(Object.values(input.ExpressionAttributeValues ?? {})[0] && prefixOf(Object.values(input.ExpressionAttributeValues)[0]))}`;
          if (operation === 'PutItem' && input.Item?.gsi1pk) gsiWriteUnits += writeUnitsOf(input.Item);
        }
        const entries = this.dynamoEntries(label);
        for (const entry of entries) entry.calls += 1;
        try {
          const result = await next(args);
          const output = result.output as { ConsumedCapacity?: CapacityEntry | CapacityEntry[]; Attributes?: Record<string, AttributeValue> };
          const capacities = ([] as CapacityEntry[]).concat(output.ConsumedCapacity ?? []);
          const units = capacities.reduce((sum, capacity) => sum + (capacity.CapacityUnits ?? 0), 0);
          if (operation === 'UpdateItem' && input.ReturnValues === 'ALL_NEW' && hasIndexKey(output.Attributes))
            gsiWriteUnits += writeUnitsOf(output.Attributes);
          for (const entry of entries) {
            if (isWrite) entry.writeUnits += units + gsiWriteUnits;
            else entry.readUnits += units;
          }
          if (isWrite) this.noteItemWrites(operation, input, output, operation === 'BatchWriteItem' ? 0 : units, false);
          return result;
        } catch (error) {
          if ((error as { name?: string }).name === 'ConditionalCheckFailedException') {
            for (const entry of entries) {
              entry.refusedConditions += 1;
              entry.writeUnits += writeUnitsOf(input.Item);
            }
            this.noteItemWrites(operation, input, undefined, 0, true);
          }
          throw error;
        }
      },
      { step: 'build', name: 'benchCountDynamoDb', override: true },
    );
  }

  /**
   * Takes the DynamoDB counters off `client` again: a counted stack sends every call through the
   * SDK's middlewares, so timings taken after counting (the accept bench's rounds) use the client as
   * the functions run it, item operations sent directly (shared/adapters/sdk/direct-dynamodb-calls.ts).
   */
  detachDynamoDb(client: DynamoDBClient): void {
    client.middlewareStack.remove('benchRequestCapacity');
    client.middlewareStack.remove('benchCountDynamoDb');
  }

  attachSqs(client: SQSClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const action = String(context.commandName ?? 'Unknown').replace(/Command$/, '');
        const input = args.input as Record<string, any>;
        const entry = this.sqsEntry(action);
        entry.calls += 1;
        const result = await next(args);
        let bytes = 0;
        let messages = 0;
        if (action === 'SendMessageBatch') {
          for (const item of input.Entries ?? []) bytes += Buffer.byteLength(String(item.MessageBody ?? ''));
          messages = (input.Entries ?? []).length;
        } else if (action === 'SendMessage') {
          bytes = Buffer.byteLength(String(input.MessageBody ?? ''));
          messages = 1;
        } else if (action === 'ReceiveMessage') {
          const received = (result.output as { Messages?: Array<{ Body?: string }> }).Messages ?? [];
          for (const message of received) bytes += Buffer.byteLength(message.Body ?? '');
          messages = received.length;
        }
        entry.messages += messages;
        entry.payloadBytes += bytes;
        entry.billedRequests += Math.max(1, Math.ceil(bytes / 65_536));
        return result;
      },
      { step: 'initialize', name: 'benchCountSqs', override: true },
    );
  }
}

/** Sums over labels matching `pattern`. */
export function sumDynamo(counts: RequestCounts, pattern: RegExp = /./): DynamoOperationCount {
  const total: DynamoOperationCount = { calls: 0, refusedConditions: 0, writeUnits: 0, readUnits: 0 };
  for (const [label, count] of Object.entries(counts.dynamodb)) {
    if (!pattern.test(label)) continue;
    total.calls += count.calls;
    total.refusedConditions += count.refusedConditions;
    total.writeUnits += count.writeUnits;
    total.readUnits += count.readUnits;
  }
  return total;
}
