/**
 * Local data kept on disk outlives code changes: a table created before an index existed cannot get
 * it from dynalite, so the boot names the table, the index and the way out instead of failing later.
 */
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { emulatorCredentials, emulatorRegion, ensureTables, startDynalite, type RunningEmulator } from '../../../local/emulators';

describe('ensureTables on kept local data', () => {
  let emulator: RunningEmulator;
  let client: DynamoDBClient;

  beforeAll(async () => {
    emulator = await startDynalite({});
    client = new DynamoDBClient({ region: emulatorRegion, credentials: emulatorCredentials, endpoint: emulator.endpoint });
  });
  afterAll(async () => {
    client.destroy();
    await emulator.stop();
  });

  it('accepts tables it created itself on a second boot', async () => {
    const nameOf = (name: string) => `again-${name}`;
    const first = await ensureTables(client, nameOf);
    await expect(ensureTables(client, nameOf)).resolves.toEqual(first);
  });

  it('refuses a messaging table from before gsi2, naming the table, the index and what to delete', async () => {
    const nameOf = (name: string) => `old-${name}`;
    await client.send(
      new CreateTableCommand({
        TableName: 'old-messaging',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'gsi1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    await expect(ensureTables(client, nameOf)).rejects.toThrow(
      /Local table old-messaging .* lacks index gsi2.*Delete the local DynamoDB data \(\.local\/dynamodb/,
    );
  });
});
