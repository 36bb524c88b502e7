/** StatefulStack: tables, outbound queue and its DLQ, the token KMS key — all from runtime-contract/resource-definitions.ts. */
import type { CfnElement } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { functions, queues, tables, type QueueName, type TableName } from '../../runtime-contract/resource-definitions';
import { resourcesOf, synthesizePlatform, type SynthesizedPlatform } from './support/platform';

let synth: SynthesizedPlatform;
let template: Template;

beforeAll(() => {
  synth = synthesizePlatform();
  template = synth.stateful;
});

const tableId = (name: TableName) => synth.platform.stateful.getLogicalId(synth.platform.stateful.tables[name].node.defaultChild as CfnElement);
const queueId = (name: QueueName) => synth.platform.stateful.getLogicalId(synth.platform.stateful.queues[name].node.defaultChild as CfnElement);
const dlqId = (name: QueueName) => synth.platform.stateful.getLogicalId(synth.platform.stateful.deadLetterQueues[name].node.defaultChild as CfnElement);

describe.each(Object.values(tables))('table $name', (definition) => {
  const table = () => resourcesOf(template, 'AWS::DynamoDB::Table')[tableId(definition.name)]!;

  it('has the key schema and global indexes of its definition', () => {
    const properties = table().Properties!;
    expect(properties.KeySchema).toEqual([
      { AttributeName: definition.partitionKey, KeyType: 'HASH' },
      ...(definition.sortKey ? [{ AttributeName: definition.sortKey, KeyType: 'RANGE' }] : []),
    ]);
    const indexes = (properties.GlobalSecondaryIndexes ?? []) as Array<Record<string, any>>;
    expect(indexes.map((index) => index.IndexName).sort()).toEqual(definition.globalIndexes.map((index) => index.indexName).sort());
    for (const index of definition.globalIndexes) {
      expect(indexes.find((candidate) => candidate.IndexName === index.indexName)).toEqual({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      });
    }
  });

  it('is on-demand with point-in-time recovery', () => {
    const properties = table().Properties!;
    expect(properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(properties.ProvisionedThroughput).toBeUndefined();
    expect(properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });

  it('expires items by its TTL attribute, or has no TTL when none is defined', () => {
    const ttl = table().Properties!.TimeToLiveSpecification;
    if (definition.timeToLiveAttribute) expect(ttl).toEqual({ AttributeName: definition.timeToLiveAttribute, Enabled: true });
    else expect(ttl).toBeUndefined();
  });

  it(`is ${definition.retainOnDelete ? 'retained and deletion-protected' : 'deleted with the stack'}`, () => {
    const resource = table();
    const policy = definition.retainOnDelete ? 'Retain' : 'Delete';
    expect(resource.DeletionPolicy).toBe(policy);
    expect(resource.UpdateReplacePolicy).toBe(policy);
    expect(Boolean(resource.Properties!.DeletionProtectionEnabled)).toBe(definition.retainOnDelete);
  });
});

it('creates exactly the defined tables', () => {
  expect(Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table')).sort()).toEqual((Object.keys(tables) as TableName[]).map(tableId).sort());
});

describe.each(Object.values(queues))('queue $name', (definition) => {
  const queue = () => resourcesOf(template, 'AWS::SQS::Queue')[queueId(definition.name)]!.Properties!;
  const dlq = () => resourcesOf(template, 'AWS::SQS::Queue')[dlqId(definition.name)]!.Properties!;

  it('redrives to its dead-letter queue after maxReceiveCount receives', () => {
    expect(queue().RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId(definition.name), 'Arn'] },
      maxReceiveCount: definition.maxReceiveCount,
    });
    expect(dlq().RedrivePolicy).toBeUndefined();
  });

  it('has the defined visibility timeout and DLQ retention', () => {
    expect(queue().VisibilityTimeout).toBe(definition.visibilityTimeoutSeconds);
    expect(dlq().MessageRetentionPeriod).toBe(definition.deadLetterRetentionDays * 24 * 60 * 60);
  });

  it('encrypts with SQS-managed keys and refuses non-TLS access, DLQ included', () => {
    for (const [id, properties] of [
      [queueId(definition.name), queue()],
      [dlqId(definition.name), dlq()],
    ] as const) {
      expect(properties.SqsManagedSseEnabled).toBe(true);
      expect(properties.KmsMasterKeyId).toBeUndefined();
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });
});

it("gives the outbound queue a visibility timeout of at least 6x the chunk worker's timeout", () => {
  const visibility = resourcesOf(template, 'AWS::SQS::Queue')[queueId('outboundMessages')]!.Properties!.VisibilityTimeout as number;
  expect(visibility).toBeGreaterThanOrEqual(6 * functions['chunk-worker'].timeoutSeconds);
});

describe('upstream token KMS key', () => {
  it('rotates, is retained, and has an alias', () => {
    const keys = Object.entries(resourcesOf(template, 'AWS::KMS::Key'));
    expect(keys).toHaveLength(1);
    const [keyId, key] = keys[0]!;
    expect(key.Properties!.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
    expect(key.UpdateReplacePolicy).toBe('Retain');
    template.hasResourceProperties('AWS::KMS::Alias', {
      AliasName: Match.stringLikeRegexp('^alias/.+/upstream-access-tokens$'),
      TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
  });

  it('keeps its key policy to the account (function grants live in the ApiStack roles, not here)', () => {
    const key = Object.values(resourcesOf(template, 'AWS::KMS::Key'))[0]!;
    const statements = key.Properties!.KeyPolicy.Statement as Array<Record<string, any>>;
    expect(statements).toHaveLength(1);
    expect(JSON.stringify(statements[0]!.Principal)).toContain(':root');
  });
});

it('protects the stateful stack against termination, and only that one', () => {
  expect(synth.platform.stateful.terminationProtection).toBe(true);
  expect(synth.platform.api.terminationProtection).toBe(false);
});

it('synthesizes for the configured account and region', () => {
  expect(synth.platform.stateful.account).toBe('123456789012');
  expect(synth.platform.stateful.region).toBe('eu-west-1');
  expect(synth.platform.stateful.stackName).toBe('WhatsAppPlatform-Stateful');
  expect(synth.platform.api.stackName).toBe('WhatsAppPlatform-Api');
});
