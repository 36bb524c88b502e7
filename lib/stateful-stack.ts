/**
 * Everything that holds data: DynamoDB tables, the outbound-message queue with its dead-letter
 * queue, and the KMS key that encrypts upstream access tokens. Built from
 * `runtime-contract/resource-definitions.ts`; kept apart from the stateless ApiStack so functions and APIs
 * can be replaced or torn down without touching data.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { stackOutputNames } from './stack-outputs';
import { queues, tables, type QueueDefinition, type QueueName, type TableDefinition, type TableName } from '../runtime-contract/resource-definitions';
import { pascal } from './naming';
import { createPeopleUserPool } from './people-user-pool';
import type * as cognito from 'aws-cdk-lib/aws-cognito';

export interface StatefulResources {
  tables: Record<TableName, dynamodb.Table>;
  queues: Record<QueueName, sqs.Queue>;
  deadLetterQueues: Record<QueueName, sqs.Queue>;
  /** Encrypts upstream (WhatsApp Cloud API) access tokens at rest. */
  tokenKey: kms.Key;
  /** The people who sign in to the console (docs/PEOPLE.md "On AWS"); retained: it holds their accounts. */
  peopleUserPool: cognito.UserPool;
}

export interface StatefulStackProps extends StackProps {
  /** KMS alias of the token key, `alias/` included. */
  tokenKeyAlias: string;
  /** The people user pool's hosted sign-in domain prefix (`-c cognitoDomainPrefix=`); absent: derived from the stack. */
  cognitoDomainPrefix?: string;
}

const stringKey = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

export class StatefulStack extends Stack implements StatefulResources {
  readonly tables: Record<TableName, dynamodb.Table>;
  readonly queues: Record<QueueName, sqs.Queue>;
  readonly deadLetterQueues: Record<QueueName, sqs.Queue>;
  readonly tokenKey: kms.Key;
  readonly peopleUserPool: cognito.UserPool;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    const { tokenKeyAlias, cognitoDomainPrefix, ...stackProps } = props;
    super(scope, id, {
      description: 'WhatsApp business-messaging platform: stateful resources (DynamoDB tables, outbound queue, token KMS key)',
      // Deleting this stack by accident would orphan or drop customer data; require an explicit opt-out.
      terminationProtection: true,
      ...stackProps,
    });

    this.tables = mapValues(tables, (definition) => this.createTable(definition));

    const deadLetterQueues = {} as Record<QueueName, sqs.Queue>;
    this.queues = mapValues(queues, (definition) => {
      const { queue, deadLetterQueue } = this.createQueue(definition);
      deadLetterQueues[definition.name] = deadLetterQueue;
      return queue;
    });
    this.deadLetterQueues = deadLetterQueues;

    this.tokenKey = new kms.Key(this, 'UpstreamTokenKey', {
      description: 'Encrypts WhatsApp Cloud API (upstream) access tokens stored in the tenancy table',
      enableKeyRotation: true,
      // Tokens encrypted with it stay in a retained table; losing the key would make them unreadable.
      removalPolicy: RemovalPolicy.RETAIN,
      pendingWindow: Duration.days(30),
      alias: tokenKeyAlias,
    });
    new CfnOutput(this, stackOutputNames.tokenKey, { value: this.tokenKey.keyArn, description: 'KMS key for upstream access tokens' });
    this.peopleUserPool = createPeopleUserPool(this, { domainPrefix: cognitoDomainPrefix }).userPool;
  }

  private createTable(definition: TableDefinition): dynamodb.Table {
    const table = new dynamodb.Table(this, `${pascal(definition.name)}Table`, {
      partitionKey: stringKey(definition.partitionKey),
      sortKey: definition.sortKey ? stringKey(definition.sortKey) : undefined,
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: definition.timeToLiveAttribute,
      removalPolicy: definition.retainOnDelete ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      // Retained tables also refuse a DeleteTable call made outside CloudFormation.
      deletionProtection: definition.retainOnDelete,
    });
    for (const index of definition.globalIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
    new CfnOutput(this, stackOutputNames.table(definition.name), {
      value: table.tableName,
      description: `Physical name of the ${definition.name} table (${definition.envVar})`,
    });
    return table;
  }

  private createQueue(definition: QueueDefinition): { queue: sqs.Queue; deadLetterQueue: sqs.Queue } {
    const id = pascal(definition.name);
    const deadLetterQueue = new sqs.Queue(this, `${id}DeadLetterQueue`, {
      retentionPeriod: Duration.days(definition.deadLetterRetentionDays),
      // Set only for a dead-letter queue a function consumes (6x its timeout); others keep SQS's default.
      ...(definition.deadLetterVisibilityTimeoutSeconds === undefined
        ? {}
        : { visibilityTimeout: Duration.seconds(definition.deadLetterVisibilityTimeoutSeconds) }),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const queue = new sqs.Queue(this, `${id}Queue`, {
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    new CfnOutput(this, stackOutputNames.queue(definition.name), {
      value: queue.queueUrl,
      description: `URL of the ${definition.name} queue (${definition.envVar})`,
    });
    new CfnOutput(this, stackOutputNames.deadLetterQueue(definition.name), {
      value: deadLetterQueue.queueUrl,
      description: `Dead-letter queue of ${definition.name}`,
    });
    return { queue, deadLetterQueue };
  }
}

function mapValues<K extends string, V, R>(record: Record<K, V>, fn: (value: V, key: K) => R): Record<K, R> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value as V, key as K)])) as Record<K, R>;
}
