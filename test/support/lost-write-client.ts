/**
 * A DynamoDB client whose applied conditional writes all lose their answer once: a middleware
 * below the SDK's retry loop lets an attempt reach the table, then throws the SDK's TimeoutError in
 * place of a 200 answer, as a lost response does. The SDK then retries the write, which fails its
 * own condition: what every conditional write that decides something must recognise as its own
 * (docs/ARCHITECTURE.md "Decisions").
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { emulatorCredentials, emulatorRegion } from '../../local/emulators';

export interface LostWriteClient {
  client: DynamoDBClient;
  documentClient: DynamoDBDocumentClient;
  /** `lost`: applied writes whose answer was replaced by a timeout; `attempts`: conditional writes sent. */
  faults: { lost: number; attempts: number };
}

/**
 * @example
 * const { documentClient, faults, client } = clientLosingAppliedWrites(dynamo.endpoint);
 * await new DynamoDbBillingStore(documentClient, table).debitWallet('org_1', 100, at); // charged once
 * client.destroy();
 */
export function clientLosingAppliedWrites(endpoint: string): LostWriteClient {
  const client = new DynamoDBClient({ region: emulatorRegion, credentials: emulatorCredentials, endpoint });
  const faults = { lost: 0, attempts: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const input = args.input as { ConditionExpression?: string };
      const isConditionalWrite = ['PutItemCommand', 'UpdateItemCommand'].includes(context.commandName!) && input.ConditionExpression;
      if (!isConditionalWrite) return result;
      faults.attempts += 1;
      // Below the deserializer the answer is still HTTP: only a write the table applied (200) is lost.
      if ((result as { response?: { statusCode?: number } }).response?.statusCode === 200) {
        faults.lost += 1;
        throw Object.assign(new Error('a request has exceeded the configured requestTimeout'), { name: 'TimeoutError' });
      }
      return result;
    },
    { step: 'deserialize', name: 'test-applied-write-times-out' },
  );
  return { client, documentClient: DynamoDBDocumentClient.from(client), faults };
}
