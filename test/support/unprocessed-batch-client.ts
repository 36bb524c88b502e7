/**
 * A DynamoDB client that counts its calls by command and can make BatchWriteItem hand items back
 * unprocessed, as DynamoDB does under throttling (dynalite never does): the call's last
 * `unprocessedPerCall` requests (all of a smaller call) are held back from the table and returned as `UnprocessedItems`,
 * for the first `unprocessedCalls` BatchWriteItem calls (Infinity: every call).
 */
import { DynamoDBClient, type BatchWriteItemCommandInput, type BatchWriteItemCommandOutput } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { emulatorCredentials, emulatorRegion } from '../../local/emulators';

export interface CountingClient {
  client: DynamoDBClient;
  documentClient: DynamoDBDocumentClient;
  /** Calls by command name (`BatchWriteItemCommand`, `UpdateItemCommand`, …); `heldBack`: requests returned unprocessed. */
  calls: Record<string, number>;
  heldBack: { requests: number };
}

/**
 * @example
 * const { documentClient, calls, client } = countingClient(dynamo.endpoint, { unprocessedCalls: 1, unprocessedPerCall: 2 });
 * await new DynamoDbRecipientLedger(documentClient, table).recordOutcomes(jobId, 0, entries); // the 2 held back are offered again
 * client.destroy();
 */
export function countingClient(endpoint: string, plan: { unprocessedCalls?: number; unprocessedPerCall?: number } = {}): CountingClient {
  const client = new DynamoDBClient({ region: emulatorRegion, credentials: emulatorCredentials, endpoint });
  const calls: Record<string, number> = {};
  const heldBack = { requests: 0 };
  let batchCalls = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName!;
      calls[name] = (calls[name] ?? 0) + 1;
      if (name !== 'BatchWriteItemCommand' || (batchCalls += 1) > (plan.unprocessedCalls ?? 0)) return next(args);
      const input = args.input as BatchWriteItemCommandInput;
      const [table, requests] = Object.entries(input.RequestItems!)[0]!;
      const kept = Math.max(0, requests.length - (plan.unprocessedPerCall ?? 1));
      const held = requests.slice(kept);
      heldBack.requests += held.length;
      // Nothing left to send (an empty batch is invalid): the table's answer would be all of it back.
      if (kept === 0) return { output: { $metadata: {}, UnprocessedItems: { [table]: held } }, response: {} } as Awaited<ReturnType<typeof next>>;
      const result = await next({ ...args, input: { ...input, RequestItems: { [table]: requests.slice(0, kept) } } });
      if (held.length === 0) return result;
      const output = result.output as BatchWriteItemCommandOutput;
      return { ...result, output: { ...output, UnprocessedItems: { [table]: held } } };
    },
    { step: 'initialize', name: 'test-count-and-hold-back' },
  );
  return { client, documentClient: DynamoDBDocumentClient.from(client), calls, heldBack };
}
