/**
 * Meta's webhook endpoint in AWS: an HTTP API (its surface's `frontDoor`), not a REST API: its
 * stage, routes with payload format 1.0 to meta-webhook, route throttles from the guards, access
 * logs, no key; and the meta-webhook function's grants.
 */
import type { CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { routeGuards } from '../../runtime-contract/route-guards';
import { httpApiGatewayResponses, surfaces } from '../../runtime-contract/route-manifest';
import { httpAccessLogFields } from '../../lib/constructs/http-surface-api';
import {
  actionsOf,
  functionLogicalId,
  functionProperties,
  mentions,
  methodsOf,
  resourcesOf,
  roleStatements,
  synthesizePlatform,
  type SynthesizedPlatform,
} from './support/platform';

let synth: SynthesizedPlatform;
let template: Template;

beforeAll(() => {
  synth = synthesizePlatform();
  template = synth.api;
});

const webhooksApiId = () => synth.platform.api.getLogicalId(synth.platform.api.httpSurfaceApis.webhooks.api.node.defaultChild as CfnElement);
const queueId = (name: 'metaEvents' | 'outboundMessages') =>
  synth.platform.stateful.getLogicalId(synth.platform.stateful.queues[name].node.defaultChild as CfnElement);
const ofWebhooksApi = (type: string) => Object.values(resourcesOf(template, type)).filter((resource) => mentions(resource.Properties!.ApiId, webhooksApiId()));

describe('the webhooks front door: an HTTP API', () => {
  it("is the surface's front door in the contract, and the only HTTP API of the stack", () => {
    expect(surfaces.webhooks.frontDoor).toBe('http-api');
    expect(Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Api'))).toEqual([webhooksApiId()]);
    expect(resourcesOf(template, 'AWS::ApiGatewayV2::Api')[webhooksApiId()]!.Properties!.ProtocolType).toBe('HTTP');
  });

  it('no REST API serves /meta/whatsapp any more, nor has a stage hooks', () => {
    expect(methodsOf(template).filter((method) => method.path.includes('/meta/whatsapp'))).toEqual([]);
    const restStages = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage')).map((stage) => stage.Properties!.StageName);
    expect(restStages).not.toContain('hooks');
    expect(Object.keys(resourcesOf(template, 'AWS::ApiGateway::RestApi'))).toHaveLength(
      Object.values(surfaces).filter((surface) => surface.frontDoor === 'rest-api').length,
    );
  });

  it('serves GET and POST /meta/whatsapp on the named stage hooks (so the URL is /hooks/meta/whatsapp), no authorizer', () => {
    const stages = ofWebhooksApi('AWS::ApiGatewayV2::Stage');
    expect(stages.map((stage) => stage.Properties!.StageName)).toEqual(['hooks']);
    expect(stages[0]!.Properties!.AutoDeploy).toBe(true);
    const routes = ofWebhooksApi('AWS::ApiGatewayV2::Route');
    expect(routes.map((route) => route.Properties!.RouteKey).sort()).toEqual(['GET /meta/whatsapp', 'POST /meta/whatsapp']);
    for (const route of routes) expect(route.Properties!.AuthorizationType ?? 'NONE').toBe('NONE');
  });

  it('proxies both routes to meta-webhook with payload format 1.0 (the REST-style event the handler reads)', () => {
    const integrations = ofWebhooksApi('AWS::ApiGatewayV2::Integration');
    expect(integrations).toHaveLength(1);
    const integration = integrations[0]!.Properties!;
    expect(integration.IntegrationType).toBe('AWS_PROXY');
    expect(integration.PayloadFormatVersion).toBe('1.0');
    expect(mentions(integration.IntegrationUri, functionLogicalId(template, 'meta-webhook'))).toBe(true);
    const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter((permission) =>
      mentions(permission.Properties!.SourceArn, webhooksApiId()),
    );
    expect(permissions).toHaveLength(1);
    expect(mentions(permissions[0]!.Properties!.FunctionName, functionLogicalId(template, 'meta-webhook'))).toBe(true);
  });

  it("throttles each route at its guard's method throttle (what replaces WAF's per-IP rules), all callers together", () => {
    const settings = ofWebhooksApi('AWS::ApiGatewayV2::Stage')[0]!.Properties!.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;
    expect(settings['POST /meta/whatsapp']).toEqual(
      expect.objectContaining({
        ThrottlingRateLimit: routeGuards['meta-webhook'].methodThrottle.rateLimit,
        ThrottlingBurstLimit: routeGuards['meta-webhook'].methodThrottle.burstLimit,
      }),
    );
    expect(settings['GET /meta/whatsapp']).toEqual(
      expect.objectContaining({
        ThrottlingRateLimit: routeGuards['meta-verification'].methodThrottle.rateLimit,
        ThrottlingBurstLimit: routeGuards['meta-verification'].methodThrottle.burstLimit,
      }),
    );
    // The stage's default for any other route key, as the REST stages' default.
    expect(ofWebhooksApi('AWS::ApiGatewayV2::Stage')[0]!.Properties!.DefaultRouteSettings).toEqual(
      expect.objectContaining({ ThrottlingRateLimit: expect.any(Number) }),
    );
  });

  it('writes access logs (no headers, no bodies, no query strings) to its own log group', () => {
    const access = ofWebhooksApi('AWS::ApiGatewayV2::Stage')[0]!.Properties!.AccessLogSettings;
    expect(JSON.parse(access.Format)).toEqual(httpAccessLogFields);
    expect(access.Format).not.toMatch(/header|querystring|body/i);
    expect(JSON.stringify(access.DestinationArn)).toContain(
      synth.platform.api.getLogicalId(synth.platform.api.httpSurfaceApis.webhooks.accessLogGroup.node.defaultChild as CfnElement),
    );
  });

  it('is in no usage plan and carries no API key requirement (Meta sends no key)', () => {
    for (const plan of Object.values(resourcesOf(template, 'AWS::ApiGateway::UsagePlan'))) {
      expect(mentions(plan.Properties!.ApiStages ?? [], webhooksApiId())).toBe(false);
    }
    for (const route of ofWebhooksApi('AWS::ApiGatewayV2::Route')) expect(route.Properties!.ApiKeyRequired === true).toBe(false);
  });

  it("answers its own refusals in HTTP API's fixed bodies, which the contract lists for the local gateway", () => {
    expect(surfaces.webhooks.gatewayResponses).toBe(httpApiGatewayResponses);
    expect(
      Object.values(resourcesOf(template, 'AWS::ApiGateway::GatewayResponse')).filter((response) => mentions(response.Properties!.RestApiId, webhooksApiId())),
    ).toEqual([]);
  });

  it('outputs the webhook surface URL the operator registers with Meta (plus meta/whatsapp)', () => {
    const output = synth.api.findOutputs('WebhooksApiUrl');
    const value = JSON.stringify(Object.values(output)[0]!.Value);
    expect(value).toContain(webhooksApiId());
    expect(value).toContain('.execute-api.');
    expect(value).toContain('/hooks/');
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

describe("the webhook's source guard (no WAF can front an HTTP API)", () => {
  it('hears every address unless ranges are given: then meta-webhook, and only it, gets them as META_WEBHOOK_SOURCE_RANGES', () => {
    expect(functionProperties(template, 'meta-webhook').Environment.Variables.META_WEBHOOK_SOURCE_RANGES).toBeUndefined();
    const ranged = synthesizePlatform({ metaWebhookSourceRanges: '157.240.0.0/16, 2a03:2880::/32' }).api;
    expect(functionProperties(ranged, 'meta-webhook').Environment.Variables.META_WEBHOOK_SOURCE_RANGES).toBe('157.240.0.0/16,2a03:2880::/32');
    const others = Object.values(resourcesOf(ranged, 'AWS::Lambda::Function')).filter(
      (fn) => fn.Properties!.Environment?.Variables?.META_WEBHOOK_SOURCE_RANGES !== undefined,
    );
    expect(others).toHaveLength(1);
  });

  it('refuses to synthesize a range that is not a CIDR range, naming it', () => {
    expect(() => synthesizePlatform({ metaWebhookSourceRanges: '157.240.0.0/16,meta.com' })).toThrow(/metaWebhookSourceRanges: meta\.com is not a CIDR range/);
  });

  it('the per-source refusal limit is the guard data the function reads', () => {
    expect(routeGuards['meta-webhook'].perSourceRefusals).toEqual({ limit: 10, windowSeconds: 60 });
  });
});
