/**
 * An in-process dynalite with every table of runtime-contract/resource-definitions.ts, for integration tests.
 * Each call gets its own server on a free port and its own table names, so test files can run
 * in parallel. Reuses the local runtime's emulator helpers, so tests and `npm start` create the
 * tables identically.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tables, type TableName } from '../../runtime-contract/resource-definitions';
import { emulatorCredentials, emulatorRegion, ensureTables, startDynalite } from '../../local/emulators';

export interface TestDynamo {
  endpoint: string;
  tableNames: Record<TableName, string>;
  client: DynamoDBClient;
  documentClient: DynamoDBDocumentClient;
  /** Variables that point the application (parseAppConfig) at this dynalite. */
  environment: Record<string, string>;
  stop(): Promise<void>;
}

let instances = 0;

/**
 * Also puts the emulator's dummy credentials (and region) into process.env when none are set:
 * services built by functions/composition.ts use the SDK's default credential chain, which reads
 * the process environment as in Lambda, and would otherwise go looking for instance metadata.
 */
export async function startTestDynamo(): Promise<TestDynamo> {
  process.env.AWS_ACCESS_KEY_ID ??= emulatorCredentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= emulatorCredentials.secretAccessKey;
  process.env.AWS_REGION ??= emulatorRegion;
  const emulator = await startDynalite({});
  const client = new DynamoDBClient({ region: emulatorRegion, credentials: emulatorCredentials, endpoint: emulator.endpoint });
  const prefix = `test${process.pid}-${(instances += 1)}`;
  const tableNames = await ensureTables(client, (name) => `${prefix}-${name}`);
  const environment: Record<string, string> = {
    AWS_REGION: emulatorRegion,
    AWS_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
    DYNAMODB_ENDPOINT: emulator.endpoint,
    ...Object.fromEntries(Object.values(tables).map((table) => [table.envVar, tableNames[table.name]])),
  };
  return {
    endpoint: emulator.endpoint,
    tableNames,
    client,
    documentClient: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    environment,
    stop: async () => {
      client.destroy();
      await emulator.stop();
    },
  };
}
