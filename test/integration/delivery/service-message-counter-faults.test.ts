/**
 * The service-message counter on dynalite under the faults a retry meets (docs/DELIVERY-STATUS.md
 * "Pricing values and service messages"): every conditional write losing its answer once (the SDK
 * retries it), and a count that crashed after its claim and is applied again. Each message is
 * counted once, with one ordinal, and the counter item keeps no claim token once a count is done.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbServiceMessageCounter, claimTokenOf } from '../../../shared/adapters/dynamodb/dynamodb-service-message-counter';
import { messagingKeys } from '../../../shared/adapters/dynamodb/messaging-table';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';
import { clientLosingAppliedWrites } from '../../support/lost-write-client';

let dynamo: TestDynamo;
beforeAll(async () => {
  dynamo = await startTestDynamo();
}, 20_000);
afterAll(async () => {
  await dynamo?.stop();
});

const counterItem = async (phoneNumberId: string, month: string) =>
  (
    await dynamo.documentClient.send(
      new GetCommand({ TableName: dynamo.tableNames.messaging, Key: messagingKeys.serviceTier(phoneNumberId, month), ConsistentRead: true }),
    )
  ).Item ?? {};
const tokensOf = (item: Record<string, unknown>) => Object.keys(item).filter((name) => name.startsWith('m_'));

describe('DynamoDbServiceMessageCounter under faults', () => {
  it('counts each message once when every conditional write loses its answer once', async () => {
    const lossy = clientLosingAppliedWrites(dynamo.endpoint);
    try {
      const counter = new DynamoDbServiceMessageCounter(lossy.documentClient, dynamo.tableNames.messaging);
      const answers = [];
      for (let index = 0; index < 4; index += 1) answers.push(await counter.countDelivery('pn-lossy', '2026-10', `wamid.l${index}`));
      expect(answers.map(({ ordinal }) => ordinal)).toEqual([1, 2, 3, 4]);
      expect(lossy.faults.lost).toBeGreaterThanOrEqual(8);
      expect(await counter.deliveriesIn('pn-lossy', '2026-10')).toBe(4);
      expect(tokensOf(await counterItem('pn-lossy', '2026-10'))).toEqual([]);
    } finally {
      lossy.client.destroy();
    }
  });

  it('a count that crashed after its claim takes the same ordinal when applied again', async () => {
    const counter = new DynamoDbServiceMessageCounter(dynamo.documentClient, dynamo.tableNames.messaging);
    await counter.countDelivery('pn-crash', '2026-10', 'wamid.first');
    // The claim of wamid.crashed as the crashed attempt left it: counted, token there, no marker.
    await dynamo.documentClient.send(
      new UpdateCommand({
        TableName: dynamo.tableNames.messaging,
        Key: messagingKeys.serviceTier('pn-crash', '2026-10'),
        UpdateExpression: 'SET delivered = delivered + :one, #token = delivered + :one',
        ExpressionAttributeNames: { '#token': claimTokenOf('wamid.crashed') },
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    expect(await counter.countDelivery('pn-crash', '2026-10', 'wamid.crashed')).toEqual({ ordinal: 2, month: '2026-10' });
    expect(await counter.deliveriesIn('pn-crash', '2026-10')).toBe(2);
    expect(await counter.countDelivery('pn-crash', '2026-10', 'wamid.next')).toEqual({ ordinal: 3, month: '2026-10' });
    expect(tokensOf(await counterItem('pn-crash', '2026-10'))).toEqual([]);
  });
});
