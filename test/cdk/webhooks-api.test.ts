/** Meta's webhook endpoint in AWS: its own REST API without keys, its routes, and the meta-webhook function's grants. */
import type { CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { actionsOf, functionProperties, mentions, methodsOf, resourcesOf, roleStatements, synthesizePlatform, type SynthesizedPlatform } from './support/platform';

let synth: SynthesizedPlatform;
let template: Template;

beforeAll(() => {
  synth = synthesizePlatform();
  template = synth.api;
});

const webhooksApiId = () => synth.platform.api.getLogicalId(synth.platform.api.surfaceApis.webhooks.api.node.defaultChild as CfnElement);
const queueId = (name: 'metaEvents' | 'outboundMessages') =>
  synth.platform.stateful.getLogicalId(synth.platform.stateful.queues[name].node.defaultChild as CfnElement);

describe('the webhooks REST API', () => {
  it('serves GET and POST /meta/whatsapp on stage hooks, proxied to meta-webhook, with no API key and no binary media types', () => {
    const api = resourcesOf(template, 'AWS::ApiGateway::RestApi')[webhooksApiId()]!.Properties!;
    // Without binary media types a JSON body reaches the function as the exact text Meta signed.
    expect(api.BinaryMediaTypes).toBeUndefined();
    expect(api.ApiKeySourceType).toBeUndefined();
    const stage = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage')).find((candidate) => candidate.Properties!.RestApiId.Ref === webhooksApiId())!;
    expect(stage.Properties!.StageName).toBe('hooks');

    const own = methodsOf(template).filter((method) => method.apiLogicalId === webhooksApiId());
    expect(own.map((method) => `${method.httpMethod} ${method.path}`).sort()).toEqual(['GET /meta/whatsapp', 'POST /meta/whatsapp']);
    const functionName: string = functionProperties(template, 'meta-webhook').FunctionName;
    for (const method of own) {
      expect(method.properties.ApiKeyRequired === true).toBe(false);
      expect(method.properties.AuthorizationType).toBe('NONE');
      expect(method.properties.Integration.Type).toBe('AWS_PROXY');
      expect(mentions(method.properties.Integration.Uri, `:function:${functionName}/invocations`)).toBe(true);
    }
  });

  it('is in no usage plan (Meta sends no key)', () => {
    for (const plan of Object.values(resourcesOf(template, 'AWS::ApiGateway::UsagePlan'))) {
      expect(mentions(plan.Properties!.ApiStages ?? [], webhooksApiId())).toBe(false);
    }
  });

  it('answers its gateway refusals in the webhooks error shape', () => {
    const notFound = Object.values(resourcesOf(template, 'AWS::ApiGateway::GatewayResponse')).find(
      (response) => response.Properties!.RestApiId.Ref === webhooksApiId() && response.Properties!.ResponseType === 'MISSING_AUTHENTICATION_TOKEN',
    )!;
    expect(JSON.parse(notFound.Properties!.ResponseTemplates['application/json'])).toEqual({
      error: { code: 'NOT_FOUND', message: 'Route not found', requestId: '$context.requestId' },
    });
  });
});

describe('the meta-webhook function', () => {
  const statements = () => roleStatements(template, 'meta-webhook');

  it('may send to metaEvents only (no receive, no other queue)', () => {
    const sqs = statements().filter((statement) => actionsOf(statement).some((action) => action.startsWith('sqs:')));
    expect(sqs.length).toBeGreaterThan(0);
    for (const statement of sqs) {
      expect(mentions(statement.Resource, queueId('metaEvents'))).toBe(true);
      expect(mentions(statement.Resource, queueId('outboundMessages'))).toBe(false);
      expect(actionsOf(statement).filter((action) => action.startsWith('sqs:'))).not.toContain('sqs:ReceiveMessage');
      expect(actionsOf(statement)).toContain('sqs:SendMessage');
    }
  });

  it('reads the tenancy table, decrypts with the token key, never writes or encrypts, and is not told where the Graph API is', () => {
    const actions = statements().flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'kms:Decrypt']));
    expect(actions).not.toEqual(expect.arrayContaining(['dynamodb:PutItem']));
    expect(actions.filter((action) => action.startsWith('kms:Encrypt'))).toEqual([]);
    const env = functionProperties(template, 'meta-webhook').Environment.Variables as Record<string, unknown>;
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['TENANCY_TABLE', 'META_EVENTS_QUEUE_URL', 'TOKEN_KMS_KEY_ID']));
    expect(Object.keys(env)).not.toEqual(expect.arrayContaining(['GRAPH_API_BASE_URL']));
    expect(Object.keys(env)).not.toEqual(expect.arrayContaining(['RATE_LIMIT_TABLE']));
  });
});
