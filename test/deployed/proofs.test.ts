/**
 * The deployed run fails when the template is wrong (docs/TESTING.md "Proven as deployed"):
 * a grant removed from a function's role makes the IAM check name function, action and
 * resource; a renamed environment variable makes the bundled function fail at its cold start.
 * Both on doctored copies of the synthesized assembly; the real definitions stay untouched.
 */
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { startKmsEmulator } from './harness/control-plane-emulators';
import { assemblyDirectory } from './harness/assembly-location';
import { IntrinsicResolver, readCloudAssembly, resourcesOfType, type CloudAssembly } from './harness/cloud-assembly';
import { deployedFunctions, type DeployedFunction } from './harness/deployed-model';
import { FunctionHost } from './harness/function-host';
import { checkWireRequest, IamLedger, startAwsEndpointProxy } from './harness/iam-recorder';
import { plannedLocalResources } from './harness/local-names';

jest.setTimeout(60_000);

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const doctored = (): CloudAssembly => {
  const assembly = readCloudAssembly(assemblyDirectory);
  return { ...assembly, stacks: structuredClone(assembly.stacks) };
};
function functionsOf(assembly: CloudAssembly): { functions: DeployedFunction[]; locals: ReturnType<typeof plannedLocalResources> } {
  const locals = plannedLocalResources(assembly);
  return { functions: deployedFunctions(assembly, new IntrinsicResolver(assembly, locals)), locals };
}
const named = (functions: DeployedFunction[], name: string): DeployedFunction => functions.find((fn) => fn.name === name)!;

/** Drops every statement of `functionName`'s role policy that grants `action`. */
function removeGrant(assembly: CloudAssembly, functionName: string, action: string): void {
  const fn = resourcesOfType(assembly, 'AWS::Lambda::Function').find(({ resource }) =>
    ((resource.Properties?.Tags as Array<{ Key: string; Value: string }>) ?? []).some((tag) => tag.Key === 'function' && tag.Value === functionName),
  )!;
  const roleId = (fn.resource.Properties!.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
  for (const { resource } of resourcesOfType(assembly, 'AWS::IAM::Policy')) {
    if (!((resource.Properties!.Roles as Array<{ Ref?: string }>) ?? []).some((role) => role.Ref === roleId)) continue;
    const document = resource.Properties!.PolicyDocument as { Statement: Array<{ Action: string | string[] }> };
    document.Statement = document.Statement.filter((statement) => ![statement.Action].flat().includes(action));
  }
}

/** A function's endpoint with no emulator behind it: an allowed call answers 501, a denied one AccessDenied. */
async function withEndpoint<T>(fn: DeployedFunction, run: (endpoint: string) => Promise<T>): Promise<{ ledger: IamLedger; outcome: PromiseSettledResult<T> }> {
  const ledger = new IamLedger();
  const proxy = await startAwsEndpointProxy({
    functionName: fn.name,
    statements: fn.statements,
    ledger,
    tags: { apiKeyTags: () => undefined },
    upstreamOf: () => undefined,
  });
  try {
    const [outcome] = await Promise.allSettled([run(proxy.endpoint)]);
    return { ledger, outcome: outcome! };
  } finally {
    await proxy.stop();
  }
}

describe('a grant removed from the template fails the IAM check, naming function, action and resource', () => {
  const putLedgerEntry = (fn: DeployedFunction) =>
    withEndpoint(fn, (endpoint) =>
      new DynamoDBClient({ region: 'us-east-1', endpoint, credentials, maxAttempts: 1 }).send(
        new PutItemCommand({ TableName: fn.environment.MESSAGING_TABLE, Item: { pk: { S: 'JOB#1' }, sk: { S: 'CHUNK#0' } } }),
      ),
    );

  it('the chunk worker may write the messaging table as synthesized', async () => {
    const { functions } = functionsOf(doctored());
    const { ledger } = await putLedgerEntry(named(functions, 'chunk-worker'));
    expect(ledger.calls).toHaveLength(1);
    expect(ledger.describeViolations()).toEqual([]);
  });

  it('without dynamodb:PutItem its write is refused and reported', async () => {
    const assembly = doctored();
    removeGrant(assembly, 'chunk-worker', 'dynamodb:PutItem');
    const { functions } = functionsOf(assembly);
    const fn = named(functions, 'chunk-worker');
    const { ledger, outcome } = await putLedgerEntry(fn);
    expect(outcome).toMatchObject({ status: 'rejected', reason: { name: 'AccessDeniedException' } });
    expect(ledger.describeViolations()).toEqual([
      `chunk-worker: dynamodb:PutItem on arn:aws:dynamodb:us-east-1:000000000000:table/${fn.environment.MESSAGING_TABLE}`,
    ]);
  });

  it('without sqs:SendMessage the batch send of broadcast-send is refused (SQS authorizes batches by the single action)', async () => {
    const assembly = doctored();
    removeGrant(assembly, 'broadcast-send', 'sqs:SendMessage');
    const fn = named(functionsOf(assembly).functions, 'broadcast-send');
    const queueUrl = fn.environment.OUTBOUND_QUEUE_URL!;
    const { ledger } = await withEndpoint(fn, (endpoint) =>
      new SQSClient({ region: 'us-east-1', endpoint, credentials, maxAttempts: 1 }).send(
        new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [{ Id: '1', MessageBody: '{}' }] }),
      ),
    );
    expect(ledger.describeViolations()).toEqual([`broadcast-send: sqs:SendMessage on arn:aws:sqs:us-east-1:000000000000:${queueUrl.split('/').pop()}`]);
  });
});

describe('a renamed environment variable makes the bundled function fail', () => {
  const startOf = async (assembly: CloudAssembly, name: string): Promise<FunctionHost> => {
    const fn = named(functionsOf(assembly).functions, name);
    return new FunctionHost(fn, { ...fn.environment, ...FunctionHost.lambdaVariables(fn), AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  };

  it('the bundle of organization-admin starts with the template environment', async () => {
    const host = await startOf(doctored(), 'organization-admin');
    try {
      await expect(host.init()).resolves.toBeUndefined();
    } finally {
      await host.stop();
    }
  });

  it('with TENANCY_TABLE renamed in the template its cold start fails naming the variable', async () => {
    const assembly = doctored();
    const fn = resourcesOfType(assembly, 'AWS::Lambda::Function').find(({ resource }) =>
      String(resource.Properties?.FunctionName).endsWith('-organization-admin'),
    )!;
    const variables = (fn.resource.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
    variables.TENANCY_TABLE_NAME = variables.TENANCY_TABLE;
    delete variables.TENANCY_TABLE;
    const host = await startOf(assembly, 'organization-admin');
    try {
      await expect(host.init()).rejects.toThrow(/TENANCY_TABLE/);
    } finally {
      await host.stop();
    }
  });
});

describe('generate-key may manage only the API keys it creates', () => {
  const apiGatewayRequest = (method: string, path: string, body?: unknown) => ({
    method,
    url: path,
    headers: { authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/apigateway/aws4_request, SignedHeaders=host, Signature=0' },
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
  });
  const check = (method: string, path: string, options: { body?: unknown; keyTags?: Record<string, string> } = {}) => {
    const fn = named(functionsOf(doctored()).functions, 'broadcast-keys');
    return checkWireRequest(fn.name, fn.statements, apiGatewayRequest(method, path, options.body), { apiKeyTags: () => options.keyTags });
  };

  it('creates keys only tagged origin generate-key', () => {
    expect(check('POST', '/apikeys', { body: { value: 'k', tags: { origin: 'generate-key' } } }).denied).toEqual([]);
    expect(check('POST', '/apikeys', { body: { value: 'k', tags: { origin: 'operator' } } }).denied).toEqual(['arn:aws:apigateway:us-east-1::/apikeys']);
    expect(check('POST', '/apikeys', { body: { value: 'k' } }).denied).toEqual(['arn:aws:apigateway:us-east-1::/apikeys']);
  });

  it('deletes only keys tagged origin generate-key, and reads none', () => {
    expect(check('DELETE', '/apikeys/key1', { keyTags: { origin: 'generate-key' } }).denied).toEqual([]);
    expect(check('DELETE', '/apikeys/key2', { keyTags: { origin: 'operator' } }).denied).toEqual(['arn:aws:apigateway:us-east-1::/apikeys/key2']);
    expect(check('GET', '/apikeys/key1', { keyTags: { origin: 'generate-key' } }).denied).toEqual(['arn:aws:apigateway:us-east-1::/apikeys/key1']);
  });

  it('adds keys to the broadcast usage plan only', () => {
    const fn = named(functionsOf(doctored()).functions, 'broadcast-keys');
    const planId = fn.environment.BROADCAST_USAGE_PLAN_ID!;
    expect(check('POST', `/usageplans/${planId}/keys`, { body: { keyId: 'key1', keyType: 'API_KEY' } }).denied).toEqual([]);
    expect(check('POST', '/usageplans/another/keys', { body: { keyId: 'key1', keyType: 'API_KEY' } }).denied).toEqual([
      'arn:aws:apigateway:us-east-1::/usageplans/another/keys',
    ]);
  });
});

describe('the token key opens only the purposes a function is granted (kms:EncryptionContext:purpose)', () => {
  const purposeContexts = {
    'upstream-token': { purpose: 'upstream-token', organizationId: 'org_1', wabaId: '1001' },
    'meta-app': { purpose: 'meta-app', field: 'app-secret' },
    'webhook-secret': { purpose: 'webhook-secret', organizationId: 'org_1', webhookEndpointId: 'whk_1' },
    'legacy upstream-token': { organizationId: 'org_1', wabaId: '1001' },
    'legacy webhook-secret': { organizationId: 'org_1', webhookEndpointId: 'whk_1' },
  } as const;
  type ContextName = keyof typeof purposeContexts;
  const kmsRequest = (operation: 'Decrypt' | 'Encrypt', keyId: string, context: Record<string, string>) => ({
    method: 'POST',
    url: '/',
    headers: {
      authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/kms/aws4_request, SignedHeaders=host, Signature=0',
      'x-amz-target': `TrentService.${operation}`,
    },
    body: Buffer.from(JSON.stringify({ KeyId: keyId, CiphertextBlob: 'AAAA', Plaintext: 'AAAA', EncryptionContext: context })),
  });
  const opens = (name: string, operation: 'Decrypt' | 'Encrypt' = 'Decrypt'): ContextName[] => {
    const fn = named(functionsOf(doctored()).functions, name);
    return (Object.keys(purposeContexts) as ContextName[]).filter(
      (contextName) =>
        checkWireRequest(fn.name, fn.statements, kmsRequest(operation, fn.environment.TOKEN_KMS_KEY_ID!, purposeContexts[contextName]), {
          apiKeyTags: () => undefined,
        }).denied.length === 0,
    );
  };

  it('meta-webhook (internet-facing): the Meta app settings only, never a tenant token or webhook secret', () => {
    expect(opens('meta-webhook')).toEqual(['meta-app']);
    expect(opens('meta-webhook', 'Encrypt')).toEqual([]);
  });

  it('the senders: Meta tokens only, stored before purposes too', () => {
    for (const name of ['chunk-worker', 'broadcast-send', 'broadcast-discovery', 'upstream-wrapper']) {
      expect([name, opens(name)]).toEqual([name, ['upstream-token', 'legacy upstream-token']]);
    }
  });

  it('the webhook functions: webhook secrets only; broadcast-webhooks encrypts them, under their purpose only', () => {
    expect(opens('customer-events')).toEqual(['webhook-secret', 'legacy webhook-secret']);
    expect(opens('broadcast-webhooks')).toEqual(['webhook-secret', 'legacy webhook-secret']);
    expect(opens('broadcast-webhooks', 'Encrypt')).toEqual(['webhook-secret']);
  });

  it('end to end: a Meta token encrypted in the KMS emulator is refused to meta-webhook and opened by the chunk worker', async () => {
    const kms = await startKmsEmulator();
    try {
      const fns = functionsOf(doctored()).functions;
      const keyId = named(fns, 'meta-webhook').environment.TOKEN_KMS_KEY_ID!;
      kms.createKey(keyId.replace(/^arn:aws:kms:[^:]*:[^:]*:key\//, ''));
      const direct = new KMSClient({ region: 'us-east-1', endpoint: kms.endpoint, credentials, maxAttempts: 1 });
      const context = { ...purposeContexts['upstream-token'] };
      const { CiphertextBlob } = await direct.send(
        new EncryptCommand({ KeyId: keyId, Plaintext: Buffer.from('EAAG-tenant-token'), EncryptionContext: context }),
      );
      const decryptAs = async (name: string) => {
        const fn = named(fns, name);
        const ledger = new IamLedger();
        const proxy = await startAwsEndpointProxy({
          functionName: fn.name,
          statements: fn.statements,
          ledger,
          tags: { apiKeyTags: () => undefined },
          upstreamOf: (service) => (service === 'kms' ? kms.endpoint : undefined),
        });
        try {
          const client = new KMSClient({ region: 'us-east-1', endpoint: proxy.endpoint, credentials, maxAttempts: 1 });
          const [outcome] = await Promise.allSettled([client.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob, EncryptionContext: context }))]);
          return { outcome: outcome!, violations: ledger.describeViolations() };
        } finally {
          await proxy.stop();
        }
      };
      const refused = await decryptAs('meta-webhook');
      expect(refused.outcome).toMatchObject({ status: 'rejected', reason: { name: 'AccessDeniedException' } });
      expect(refused.violations).toEqual([`meta-webhook: kms:Decrypt on ${keyId}`]);
      const opened = await decryptAs('chunk-worker');
      expect(opened.violations).toEqual([]);
      expect(Buffer.from((opened.outcome as PromiseFulfilledResult<{ Plaintext?: Uint8Array }>).value.Plaintext!).toString()).toBe('EAAG-tenant-token');
    } finally {
      await kms.stop();
    }
  });
});
