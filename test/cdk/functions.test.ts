/** Lambda functions: configuration and least-privilege grants derived from runtime-contract/resource-definitions.ts; the chunk worker's queue. */
import type { CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { assertVisibilityCoversConsumer } from '../../lib/queue-event-sources';
import { legacyContextKeys } from '../../shared/crypto/token-cipher';
import {
  chunkDeadLetters,
  chunkWorker,
  customerEventsDispatcher,
  singleSender,
  deliveryEvents,
  deadLetterEnvVarOf,
  functions,
  queues,
  tableGrantOf,
  tables,
  type FunctionName,
  type QueueName,
  type TableName,
} from '../../runtime-contract/resource-definitions';
import {
  actionsOf,
  allActions,
  functionLogicalId,
  functionProperties,
  mentions,
  resourcesOf,
  roleStatements,
  synthesizePlatform,
  type SynthesizedPlatform,
} from './support/platform';

const names = Object.keys(functions) as FunctionName[];
const tableNames = Object.keys(tables) as TableName[];
const queueNames = Object.keys(queues) as QueueName[];

const readActions = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'];
const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

let synth: SynthesizedPlatform;
let template: Template;

beforeAll(() => {
  synth = synthesizePlatform();
  template = synth.api;
});

/** Logical ids in the StatefulStack; the ApiStack reaches them through exports named after them. */
const tableId = (name: TableName) => synth.platform.stateful.getLogicalId(synth.platform.stateful.tables[name].node.defaultChild as CfnElement);
const queueId = (name: QueueName) => synth.platform.stateful.getLogicalId(synth.platform.stateful.queues[name].node.defaultChild as CfnElement);
const keyId = () => synth.platform.stateful.getLogicalId(synth.platform.stateful.tokenKey.node.defaultChild as CfnElement);

const statementsOn = (name: FunctionName, logicalId: string) => roleStatements(template, name).filter((statement) => mentions(statement.Resource, logicalId));

describe.each(names)('function %s', (name) => {
  const definition = functions[name];
  const properties = () => functionProperties(template, name);
  const env = () => properties().Environment.Variables as Record<string, unknown>;

  it('runs Node.js 22 on arm64 with the defined memory and timeout', () => {
    expect(properties().Runtime).toBe('nodejs22.x');
    expect(properties().Architectures).toEqual(['arm64']);
    expect(properties().MemorySize).toBe(definition.memoryMb);
    expect(properties().Timeout).toBe(definition.timeoutSeconds);
    expect(properties().Handler).toBe('index.handler');
  });

  it('logs JSON into its own one-month log group, with X-Ray tracing', () => {
    expect(properties().TracingConfig).toEqual({ Mode: 'Active' });
    expect(properties().LoggingConfig).toEqual(expect.objectContaining({ LogFormat: 'JSON', ApplicationLogLevel: 'INFO' }));
    const logGroupId = properties().LoggingConfig.LogGroup.Ref as string;
    expect(resourcesOf(template, 'AWS::Logs::LogGroup')[logGroupId]!.Properties!.RetentionInDays).toBe(30);
    const logStatements = roleStatements(template, name).filter((statement) => actionsOf(statement).some((action) => action.startsWith('logs:')));
    expect(logStatements).toHaveLength(1);
    expect(logStatements[0]!.Resource).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
  });

  it('carries the Powertools and service settings', () => {
    expect(env()).toEqual(
      expect.objectContaining({
        POWERTOOLS_SERVICE_NAME: 'whatsapp-broadcast-platform',
        POWERTOOLS_METRICS_NAMESPACE: expect.any(String),
        LOG_LEVEL: 'INFO',
        SERVICE_NAME: 'whatsapp-broadcast-platform',
        SERVICE_VERSION: expect.any(String),
        NODE_OPTIONS: '--enable-source-maps',
      }),
    );
    // SDK calls traced unless the definition says not (its bundle then carries no tracer).
    expect(env().POWERTOOLS_TRACE_ENABLED).toBe(definition.tracesSdkCalls === false ? 'false' : undefined);
  });

  it.each(tableNames)(`gets table %s exactly as defined (${JSON.stringify(definition.tables)})`, (tableName) => {
    const access = definition.tables[tableName];
    const statements = statementsOn(name, tableId(tableName));
    const actions = statements.flatMap(actionsOf);
    const envValue = env()[tables[tableName].envVar];
    if (access === undefined) {
      expect(statements).toEqual([]);
      expect(envValue).toBeUndefined();
      return;
    }
    expect(mentions(envValue, tableId(tableName))).toBe(true);
    // Exactly the narrowed grant: the access level's actions that the table's adapters issue.
    expect([...new Set(actions)].sort()).toEqual([...tableGrantOf(name, tableName)].sort());
    // `write` (the audit log's recorders): PutItem alone, no read.
    expect(actions.some((action) => readActions.includes(action))).toBe(access !== 'write');
    if (access === 'write') expect([...new Set(actions)]).toEqual(['dynamodb:PutItem']);
    if (access === 'read') for (const action of writeActions) expect(actions).not.toContain(action);
  });

  it.each(queueNames)('may send to queue %s only if it is in sendsTo', (queueName) => {
    const sends = definition.sendsTo.includes(queueName);
    const sendStatements = statementsOn(name, queueId(queueName)).filter((statement) => actionsOf(statement).includes('sqs:SendMessage'));
    expect(sendStatements.length > 0).toBe(sends);
    // A consumer gets the URL too: it changes the visibility of the messages it received.
    const named = sends || (definition.receivesFrom ?? []).includes(queueName);
    expect(env()[queues[queueName].envVar] !== undefined).toBe(named);
    if (named) expect(mentions(env()[queues[queueName].envVar], queueId(queueName))).toBe(true);
  });

  it(`uses the token key for ${definition.tokenKey ?? 'nothing'}`, () => {
    const kmsActions = roleStatements(template, name)
      .filter((statement) => actionsOf(statement).some((action) => action.startsWith('kms:')))
      .flatMap((statement) => {
        expect(mentions(statement.Resource, keyId())).toBe(true);
        return actionsOf(statement);
      });
    if (!definition.tokenKey) {
      expect(kmsActions).toEqual([]);
      expect(env().TOKEN_KMS_KEY_ID).toBeUndefined();
      return;
    }
    expect(kmsActions).toContain('kms:Decrypt');
    expect(mentions(env().TOKEN_KMS_KEY_ID, keyId())).toBe(true);
    if (definition.tokenKey === 'encryptDecrypt') expect(kmsActions).toContain('kms:Encrypt');
    else expect(kmsActions).not.toContain('kms:Encrypt');
  });

  it(`${definition.callsUpstream ? 'has' : 'has no'} upstream settings`, () => {
    for (const variable of ['GRAPH_API_BASE_URL', 'GRAPH_API_VERSION', 'UPSTREAM_TIMEOUT_MS']) {
      expect(env()[variable] !== undefined).toBe(definition.callsUpstream);
    }
    if (definition.callsUpstream) expect(Number(env().UPSTREAM_TIMEOUT_MS)).toBeLessThan(definition.timeoutSeconds * 1000);
  });

  it(`${definition.managesApiKeys ? 'may' : 'may not'} call API Gateway`, () => {
    const apigateway = allActions(template, name).filter((action) => action.startsWith('apigateway:'));
    if (definition.managesApiKeys) expect([...new Set(apigateway)].sort()).toEqual(['apigateway:DELETE', 'apigateway:POST']);
    else expect(apigateway).toEqual([]);
  });

  it('has no wildcard action, and a wildcard resource only for X-Ray', () => {
    for (const statement of roleStatements(template, name)) {
      for (const action of actionsOf(statement)) expect(action).not.toMatch(/\*/);
      if (statement.Resource === '*') expect(actionsOf(statement).every((action) => action.startsWith('xray:'))).toBe(true);
    }
  });
});

describe('grants called out explicitly', () => {
  it('broadcast-status (read-only on tenancy) cannot write the tenancy table', () => {
    expect(functions['broadcast-status'].tables.tenancy).toBe('read');
    const actions = statementsOn('broadcast-status', tableId('tenancy')).flatMap(actionsOf);
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions).not.toContain('dynamodb:PutItem');
  });

  it('health touches no table at all', () => {
    expect(allActions(template, 'health').filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
    for (const table of Object.values(tables)) expect(functionProperties(template, 'health').Environment.Variables[table.envVar]).toBeUndefined();
  });

  it('only functions with a tokenKey may decrypt', () => {
    const decrypting = names.filter((name) => allActions(template, name).includes('kms:Decrypt'));
    expect(decrypting.sort()).toEqual(names.filter((name) => functions[name].tokenKey).sort());
  });

  it("every token key statement is limited to the function's purposes, or to the legacy form of one of them", () => {
    for (const name of names.filter((candidate) => functions[candidate].tokenKey)) {
      const purposes = [...functions[name].tokenPurposes!];
      const kms = roleStatements(template, name).filter((statement) => actionsOf(statement).some((action) => action.startsWith('kms:'))) as Array<{
        Action: string | string[];
        Condition?: Record<string, Record<string, unknown>>;
      }>;
      const own = kms.filter((statement) => statement.Condition?.StringEquals?.['kms:EncryptionContext:purpose']);
      expect([name, own.map((statement) => statement.Condition!.StringEquals!['kms:EncryptionContext:purpose'])]).toEqual([name, [purposes]]);
      for (const statement of kms.filter((candidate) => !own.includes(candidate))) {
        // Legacy contexts (before purposes): Decrypt only, and only with exactly a legacy key set of its own purposes.
        expect(actionsOf(statement)).toEqual(['kms:Decrypt']);
        const keys = [statement.Condition!['ForAllValues:StringEquals']!['kms:EncryptionContextKeys']].flat();
        expect(purposes.map((purpose) => [...(legacyContextKeys[purpose] ?? [])].sort().join())).toContain([...(keys as string[])].sort().join());
        expect(Object.keys(statement.Condition!.Null!).sort()).toEqual((keys as string[]).map((key) => `kms:EncryptionContext:${key}`).sort());
      }
    }
  });

  it('the internet-facing meta-webhook function may use the token key for the Meta app settings only', () => {
    expect(functions['meta-webhook'].tokenPurposes).toEqual(['meta-app']);
    const kms = roleStatements(template, 'meta-webhook').filter((statement) => actionsOf(statement).some((action) => action.startsWith('kms:')));
    expect(kms).toEqual([expect.objectContaining({ Action: 'kms:Decrypt', Condition: { StringEquals: { 'kms:EncryptionContext:purpose': ['meta-app'] } } })]);
  });

  it('only managesApiKeys functions get apigateway actions', () => {
    const calling = names.filter((name) => allActions(template, name).some((action) => action.startsWith('apigateway:')));
    expect(calling.sort()).toEqual(names.filter((name) => functions[name].managesApiKeys).sort());
  });
});

describe('chunk worker', () => {
  const mappings = () => Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).map((mapping) => mapping.Properties!);

  it('consumes the outbound queue with partial batch responses, the defined batch size, window and max concurrency', () => {
    const own = mappings().filter((candidate) => mentions(candidate.FunctionName, functionLogicalId(template, 'chunk-worker')));
    expect(own).toHaveLength(1);
    const mapping = own[0]!;
    expect(mapping.FunctionName).toEqual({ Ref: functionLogicalId(template, 'chunk-worker') });
    expect(mentions(mapping.EventSourceArn, queueId('outboundMessages'))).toBe(true);
    expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(mapping.BatchSize).toBe(chunkWorker.batchSize);
    expect(mapping.MaximumBatchingWindowInSeconds).toBe(chunkWorker.maxBatchingWindowSeconds);
    expect(mapping.ScalingConfig).toEqual({ MaximumConcurrency: chunkWorker.maxConcurrency });
  });

  it('is the only function that may receive from the queue, besides delivery-events on its own queue and chunk-dead-letters on its dead-letter queue', () => {
    const receiving = names.filter((name) => allActions(template, name).includes('sqs:ReceiveMessage'));
    expect(receiving.sort()).toEqual(['campaign-expander', 'chunk-dead-letters', 'chunk-worker', 'customer-events', 'delivery-events', 'single-sender']);
    expect(statementsOn('single-sender', queueId('outboundMessages'))).toEqual([]);
    expect(statementsOn('customer-events', queueId('outboundMessages'))).toEqual([]);
    // The campaign expander sends chunks to the outbound queue, never receives from it.
    expect(statementsOn('campaign-expander', queueId('outboundMessages')).flatMap((statement) => [statement.Action].flat())).not.toContain(
      'sqs:ReceiveMessage',
    );
    expect(statementsOn('delivery-events', queueId('outboundMessages'))).toEqual([]);
    expect(statementsOn('chunk-dead-letters', queueId('outboundMessages'))).toEqual([]);
  });

  it("runs with the chunkWorker settings, and the queue's visibility timeout covers 6x its timeout", () => {
    expect(functionProperties(template, 'chunk-worker').Timeout).toBe(chunkWorker.timeoutSeconds);
    expect(functionProperties(template, 'chunk-worker').MemorySize).toBe(chunkWorker.memoryMb);
    const visibility = resourcesOf(synth.stateful, 'AWS::SQS::Queue')[queueId('outboundMessages')]!.Properties!.VisibilityTimeout as number;
    expect(visibility).toBeGreaterThanOrEqual(6 * (functionProperties(template, 'chunk-worker').Timeout as number));
  });

  it('synthesis refuses a visibility timeout below 6x the consumer timeout', () => {
    expect(() => assertVisibilityCoversConsumer('q', 6 * 120 - 1, 120)).toThrow(/below 6 x consumer timeout/);
    expect(() => assertVisibilityCoversConsumer('q', 6 * 120, 120)).not.toThrow();
  });
});

describe('single-sender (the single-message lane)', () => {
  const mappings = () => Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).map((mapping) => mapping.Properties!);

  it('consumes the single-messages queue (and only that) in batches of 10 with partial batch responses and its own concurrency', () => {
    const own = mappings().filter((candidate) => mentions(candidate.FunctionName, functionLogicalId(template, 'single-sender')));
    expect(own).toHaveLength(1);
    const mapping = own[0]!;
    expect(mentions(mapping.EventSourceArn, queueId('singleMessages'))).toBe(true);
    expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(mapping.BatchSize).toBe(10);
    expect(mapping.ScalingConfig).toEqual({ MaximumConcurrency: singleSender.maxConcurrency });
    expect(functionProperties(template, 'single-sender').Timeout).toBe(60);
    expect(functionProperties(template, 'single-sender').MemorySize).toBe(1024);
    const visibility = resourcesOf(synth.stateful, 'AWS::SQS::Queue')[queueId('singleMessages')]!.Properties!.VisibilityTimeout as number;
    expect(visibility).toBeGreaterThanOrEqual(6 * singleSender.timeoutSeconds);
  });

  it('sends only to its own queue (its re-queues) and customerEvents; the chunk worker never to the single lane', () => {
    const sendsTo = (name: FunctionName) =>
      queueNames.filter((queue) => statementsOn(name, queueId(queue)).some((statement) => actionsOf(statement).includes('sqs:SendMessage')));
    expect(sendsTo('single-sender').sort()).toEqual(['customerEvents', 'singleMessages']);
    expect(sendsTo('chunk-worker').sort()).toEqual(['customerEvents', 'outboundMessages']);
    // What queues single messages: the accepts and the scheduler (a scheduled one-recipient job).
    const senders = names.filter((name) => sendsTo(name).includes('singleMessages'));
    expect(senders.sort()).toEqual(['broadcast-scheduler', 'broadcast-send', 'single-sender']);
  });

  it("has the chunk worker's tables and token purposes: the same engine and ledger", () => {
    expect(functions['single-sender'].tables).toEqual(functions['chunk-worker'].tables);
    expect(functions['single-sender'].tokenPurposes).toEqual(functions['chunk-worker'].tokenPurposes);
  });
});

describe('delivery-events', () => {
  const mappings = () => Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).map((mapping) => mapping.Properties!);

  it('consumes the meta-events queue with partial batch responses and the deliveryEvents settings', () => {
    const mapping = mappings().find((candidate) => mentions(candidate.EventSourceArn, queueId('metaEvents')))!;
    expect(mapping.FunctionName).toEqual({ Ref: functionLogicalId(template, 'delivery-events') });
    expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(mapping.BatchSize).toBe(deliveryEvents.batchSize);
    expect(mapping.ScalingConfig).toEqual({ MaximumConcurrency: deliveryEvents.maxConcurrency });
    expect(functionProperties(template, 'delivery-events').Timeout).toBe(deliveryEvents.timeoutSeconds);
    expect(functionProperties(template, 'delivery-events').MemorySize).toBe(deliveryEvents.memoryMb);
  });

  it('neither decrypts tokens nor calls upstream, and reads tenancy only', () => {
    expect(allActions(template, 'delivery-events')).not.toContain('kms:Decrypt');
    expect(functionProperties(template, 'delivery-events').Environment.Variables.GRAPH_API_BASE_URL).toBeUndefined();
    expect(statementsOn('delivery-events', tableId('tenancy')).flatMap(actionsOf)).not.toContain('dynamodb:PutItem');
  });
});

describe('chunk-dead-letters', () => {
  const mappings = () => Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).map((mapping) => mapping.Properties!);
  const outboundDeadLetterId = () =>
    synth.platform.stateful.getLogicalId(synth.platform.stateful.deadLetterQueues.outboundMessages.node.defaultChild as CfnElement);

  const singleDeadLetterId = () =>
    synth.platform.stateful.getLogicalId(synth.platform.stateful.deadLetterQueues.singleMessages.node.defaultChild as CfnElement);

  it("consumes both lanes' dead-letter queues (and only those), each with partial batch responses and its settings", () => {
    const own = mappings().filter((candidate) => mentions(candidate.FunctionName, functionLogicalId(template, 'chunk-dead-letters')));
    expect(own).toHaveLength(2);
    const single = own.find((candidate) => mentions(candidate.EventSourceArn, singleDeadLetterId()))!;
    expect(single).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: chunkDeadLetters.batchSize,
      ScalingConfig: { MaximumConcurrency: chunkDeadLetters.maxConcurrency },
    });
    expect(statementsOn('chunk-dead-letters', singleDeadLetterId()).flatMap(actionsOf)).toContain('sqs:ReceiveMessage');
    expect(statementsOn('chunk-dead-letters', singleDeadLetterId()).flatMap(actionsOf)).not.toContain('sqs:SendMessage');
    const mapping = own.find((candidate) => mentions(candidate.EventSourceArn, outboundDeadLetterId()))!;
    expect(mentions(mapping.EventSourceArn, outboundDeadLetterId())).toBe(true);
    expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(mapping.BatchSize).toBe(chunkDeadLetters.batchSize);
    expect(mapping.ScalingConfig).toEqual({ MaximumConcurrency: chunkDeadLetters.maxConcurrency });
    expect(statementsOn('chunk-dead-letters', outboundDeadLetterId()).flatMap(actionsOf)).toContain('sqs:ReceiveMessage');
    expect(statementsOn('chunk-dead-letters', outboundDeadLetterId()).flatMap(actionsOf)).not.toContain('sqs:SendMessage');
    const env = functionProperties(template, 'chunk-dead-letters').Environment.Variables as Record<string, unknown>;
    expect(mentions(env[deadLetterEnvVarOf('outboundMessages')], outboundDeadLetterId())).toBe(true);
  });

  it('never sends: no token key, no Cloud API; reads tenancy only', () => {
    expect(allActions(template, 'chunk-dead-letters')).not.toContain('kms:Decrypt');
    expect(functionProperties(template, 'chunk-dead-letters').Environment.Variables.GRAPH_API_BASE_URL).toBeUndefined();
    expect(statementsOn('chunk-dead-letters', tableId('tenancy')).flatMap(actionsOf)).not.toContain('dynamodb:PutItem');
  });
});

describe('customer-events dispatcher', () => {
  const mappings = () => Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).map((mapping) => mapping.Properties!);
  const deadLetterId = () => synth.platform.stateful.getLogicalId(synth.platform.stateful.deadLetterQueues.customerEvents.node.defaultChild as CfnElement);

  it('consumes the customerEvents queue with partial batch responses, batches of 10 and capped concurrency', () => {
    const own = mappings().filter((candidate) => mentions(candidate.FunctionName, functionLogicalId(template, 'customer-events')));
    expect(own).toHaveLength(1);
    const mapping = own[0]!;
    expect(mentions(mapping.EventSourceArn, queueId('customerEvents'))).toBe(true);
    expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(mapping.BatchSize).toBe(customerEventsDispatcher.batchSize);
    expect(mapping.ScalingConfig).toEqual({ MaximumConcurrency: customerEventsDispatcher.maxConcurrency });
  });

  it('may send to its dead-letter queue, named in its environment; no other function may', () => {
    const env = functionProperties(template, 'customer-events').Environment.Variables as Record<string, unknown>;
    expect(mentions(env[deadLetterEnvVarOf('customerEvents')], deadLetterId())).toBe(true);
    expect(statementsOn('customer-events', deadLetterId()).flatMap((statement) => [statement.Action].flat())).toContain('sqs:SendMessage');
    for (const name of names.filter((candidate) => candidate !== 'customer-events')) expect(statementsOn(name, deadLetterId())).toEqual([]);
  });
});

it('gives every function a fixed, stack-prefixed name (API integrations address it by ARN)', () => {
  for (const name of names) expect(functionProperties(template, name).FunctionName).toBe(`WhatsAppPlatform-Api-${name}`);
});

describe('table grants narrowed to what the adapters issue', () => {
  it("no function may Scan, and only upstream-wrapper (wrapper id records) and delivery-events (a batch's tally items) may BatchGetItem on messaging", () => {
    for (const name of names) {
      for (const table of tableNames) expect(tableGrantOf(name, table)).not.toContain('dynamodb:Scan');
      expect(tableGrantOf(name, 'messaging').includes('dynamodb:BatchGetItem')).toBe(name === 'upstream-wrapper' || name === 'delivery-events');
    }
  });

  it('rate limits: GetItem and UpdateItem only (the rate limiter); tenancy: no batch actions', () => {
    for (const name of names.filter((candidate) => functions[candidate].tables.rateLimits)) {
      expect(tableGrantOf(name, 'rateLimits')).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    }
    expect(tableGrantOf('meta-webhook', 'tenancy')).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
    expect(tableGrantOf('organization-admin', 'tenancy')).toEqual([
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    ]);
  });
});
