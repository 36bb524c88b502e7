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
 * Scopes: `counter.inScope('delivery-events', fn)` files every request made inside fn (async
 * context) under that scope too, so a run can say which function wrote what.
 *
 * SQS: requests by action, and billed requests (every started 64 KiB of payload is one request).
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

  /** Runs `work` with every request it makes also counted under `scope`. */
  inScope<T>(scope: string, work: () => T): T {
    return this.scopes.run(scope, work);
  }

  reset(): void {
    this.counts = emptyCounts();
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
    const counter = this;
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
          if (operation === 'Query') label = `${operation} ${String(input.TableName ?? '?').replace(/^local-/, '')}${input.IndexName ? `/${input.IndexName}` : ''} ${String(Object.values(input.ExpressionAttributeValues ?? {})[0] && prefixOf(Object.values(input.ExpressionAttributeValues)[0]))}`;
          if (operation === 'PutItem' && input.Item?.gsi1pk) gsiWriteUnits += writeUnitsOf(input.Item);
        }
        const entries = counter.dynamoEntries(label);
        for (const entry of entries) entry.calls += 1;
        try {
          const result = await next(args);
          const output = result.output as { ConsumedCapacity?: CapacityEntry | CapacityEntry[]; Attributes?: Record<string, AttributeValue> };
          const capacities = ([] as CapacityEntry[]).concat(output.ConsumedCapacity ?? []);
          const units = capacities.reduce((sum, capacity) => sum + (capacity.CapacityUnits ?? 0), 0);
          if (operation === 'UpdateItem' && input.ReturnValues === 'ALL_NEW' && hasIndexKey(output.Attributes)) gsiWriteUnits += writeUnitsOf(output.Attributes);
          for (const entry of entries) {
            if (isWrite) entry.writeUnits += units + gsiWriteUnits;
            else entry.readUnits += units;
          }
          return result;
        } catch (error) {
          if ((error as { name?: string }).name === 'ConditionalCheckFailedException') {
            for (const entry of entries) {
              entry.refusedConditions += 1;
              entry.writeUnits += writeUnitsOf(input.Item);
            }
          }
          throw error;
        }
      },
      { step: 'build', name: 'benchCountDynamoDb', override: true },
    );
  }

  attachSqs(client: SQSClient): void {
    const counter = this;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const action = String(context.commandName ?? 'Unknown').replace(/Command$/, '');
        const input = args.input as Record<string, any>;
        const entry = counter.sqsEntry(action);
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
