/** The SDK's own logger middleware is gone from the functions' DynamoDB and SQS clients (shared/adapters/sdk/without-sdk-logging.ts). */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamoDbClients } from '../../../functions/composition/dynamodb-clients';
import { createCompositionContext, destroyPooledClients } from '../../../functions/composition/composition-context';
import { sqsClient } from '../../../functions/composition/sqs-client';
import { parseAppConfig } from '../../../shared/config/app-config';
import { withoutSdkLogging } from '../../../shared/adapters/sdk/without-sdk-logging';

const middlewares = (client: { middlewareStack: { identify(): string[] } }) => client.middlewareStack.identify().map((entry) => entry.split(' ')[0]);

afterEach(() => destroyPooledClients());

describe('SDK clients without the SDK logger middleware', () => {
  it('removes only the logger middleware', () => {
    const plain = new DynamoDBClient({ region: 'eu-west-1' });
    const quiet = withoutSdkLogging(new DynamoDBClient({ region: 'eu-west-1' }));
    expect(middlewares(plain)).toContain('loggerMiddleware');
    expect(middlewares(quiet)).toEqual(middlewares(plain).filter((name) => name !== 'loggerMiddleware'));
  });

  it('is how the compositions build their DynamoDB (base and document) and SQS clients', () => {
    const context = createCompositionContext(parseAppConfig({ AWS_REGION: 'eu-west-1' }));
    const dynamodb = dynamoDbClients(context);
    expect(middlewares(dynamodb.base)).not.toContain('loggerMiddleware');
    expect(middlewares(dynamodb.document)).not.toContain('loggerMiddleware');
    expect(middlewares(dynamodb.base)).toContain('retryMiddleware');
    expect(middlewares(sqsClient(context)())).not.toContain('loggerMiddleware');
  });
});
