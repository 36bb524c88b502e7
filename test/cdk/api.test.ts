/**
 * REST APIs: every manifest route of a `rest-api` surface on the right API, method, key requirement
 * and function; stages; gateway responses. The HTTP API surfaces: test/cdk/webhooks-api.test.ts.
 */
import type { CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { routes as allRoutes } from '../../runtime-contract/all-routes';
import {
  methodThrottleOf,
  requiresGatewayApiKey,
  resourcePath,
  restApiSurfaceNames,
  surfaces,
  type GatewayResponseKind,
  type RestApiSurfaceName,
} from '../../runtime-contract/route-manifest';
import { functionProperties, mentions, methodsOf, resourcesOf, synthesizePlatform, type MethodSummary, type SynthesizedPlatform } from './support/platform';

/** What each manifest kind must become in API Gateway (written out here, not imported, so a wrong mapping fails). */
const expectedResponseTypes: Record<GatewayResponseKind, string> = {
  API_KEY: 'INVALID_API_KEY',
  THROTTLED: 'THROTTLED',
  QUOTA_EXCEEDED: 'QUOTA_EXCEEDED',
  MISSING_AUTHENTICATION_TOKEN: 'MISSING_AUTHENTICATION_TOKEN',
  REQUEST_TOO_LARGE: 'REQUEST_TOO_LARGE',
};

type SurfaceName = RestApiSurfaceName;
const surfaceNames = restApiSurfaceNames;
const isRestRoute = (route: (typeof allRoutes)[number]): route is (typeof allRoutes)[number] & { surface: RestApiSurfaceName } =>
  surfaces[route.surface].frontDoor === 'rest-api';
const routes = allRoutes.filter(isRestRoute);
const surfacesWithRoutes = surfaceNames.filter((name) => routes.some((route) => route.surface === name));
const surfacesWithoutRoutes = surfaceNames.filter((name) => !surfacesWithRoutes.includes(name));

let synth: SynthesizedPlatform;
let template: Template;
let methods: MethodSummary[];

beforeAll(() => {
  synth = synthesizePlatform();
  template = synth.api;
  methods = methodsOf(template);
});

const apiId = (surface: SurfaceName) => synth.platform.api.getLogicalId(synth.platform.api.surfaceApis[surface].api.node.defaultChild as CfnElement);
const stageId = (surface: SurfaceName) =>
  synth.platform.api.getLogicalId(synth.platform.api.surfaceApis[surface].api.deploymentStage.node.defaultChild as CfnElement);

it('creates one REST API per surface', () => {
  expect(Object.keys(resourcesOf(template, 'AWS::ApiGateway::RestApi')).sort()).toEqual(surfaceNames.map(apiId).sort());
});

describe.each(routes.map((route) => ({ ...route, key: `${route.method} ${resourcePath(route)}` })))('route $surface $key', (route) => {
  const method = () => {
    const found = methods.filter(
      (candidate) => candidate.apiLogicalId === apiId(route.surface) && candidate.path === resourcePath(route) && candidate.httpMethod === route.method,
    );
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('exists on its surface API at basePath + path with its method', () => {
    method();
    // and on no other API
    const elsewhere = methods.filter((candidate) => candidate.apiLogicalId !== apiId(route.surface) && candidate.path === resourcePath(route));
    expect(elsewhere).toEqual([]);
  });

  it(`${requiresGatewayApiKey(route) ? 'requires' : 'does not require'} an API key`, () => {
    expect(method().properties.ApiKeyRequired === true).toBe(requiresGatewayApiKey(route));
  });

  it(`proxies to the ${route.group} function and no other`, () => {
    const integration = method().properties.Integration;
    expect(integration.Type).toBe('AWS_PROXY');
    expect(integration.IntegrationHttpMethod).toBe('POST');
    const ownName: string = functionProperties(template, route.group).FunctionName;
    expect(mentions(integration.Uri, `:function:${ownName}/invocations`)).toBe(true);
    const otherNames = Object.values(resourcesOf(template, 'AWS::Lambda::Function'))
      .map((fn) => fn.Properties!.FunctionName as string)
      .filter((name) => name !== ownName);
    for (const other of otherNames) expect(mentions(integration.Uri, `:function:${other}/`)).toBe(false);
    expect(method().properties.OperationName).toBe(route.operation);
  });
});

it('has no method the manifest does not declare (besides the no-routes placeholders)', () => {
  const declared = new Set(routes.map((route) => `${apiId(route.surface)} ${route.method} ${resourcePath(route)}`));
  const placeholders = new Set(surfacesWithoutRoutes.map((surface) => `${apiId(surface)} ANY /`));
  const extra = methods
    .map((method) => `${method.apiLogicalId} ${method.httpMethod} ${method.path}`)
    .filter((key) => !declared.has(key) && !placeholders.has(key));
  expect(extra).toEqual([]);
  expect(methods.filter((method) => method.properties.ApiKeyRequired === true)).toHaveLength(routes.filter(requiresGatewayApiKey).length);
});

describe('surfaces without routes', () => {
  // A loop, not it.each: once every surface has routes the list is empty.
  it(`answer their own 404 body from a MOCK method at the root (${surfacesWithoutRoutes.join(', ') || 'none today'})`, () => {
    for (const surface of surfacesWithoutRoutes) {
      const own = methods.filter((method) => method.apiLogicalId === apiId(surface));
      expect(own).toHaveLength(1);
      expect(own[0]!.path).toBe('/');
      const integration = own[0]!.properties.Integration;
      expect(integration.Type).toBe('MOCK');
      const notFound = surfaces[surface].gatewayResponses.MISSING_AUTHENTICATION_TOKEN;
      expect(integration.IntegrationResponses).toEqual([{ StatusCode: String(notFound.statusCode), ResponseTemplates: { 'application/json': notFound.body } }]);
    }
  });

  it('surfaces with routes have no MOCK placeholder', () => {
    const ids = surfacesWithRoutes.map(apiId);
    expect(methods.filter((method) => ids.includes(method.apiLogicalId) && method.properties.Integration.Type === 'MOCK')).toEqual([]);
  });
});

describe('invoke permissions', () => {
  const groupsOn = (surface: SurfaceName) => [...new Set(routes.filter((route) => route.surface === surface).map((route) => route.group))];
  const permissions = () => Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).map((resource) => resource.Properties!);
  const functionIdOfPermission = (permission: Record<string, any>) => permission.FunctionName['Fn::GetAtt'][0] as string;
  const functionIdOf = (group: string) =>
    Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).find(
      ([, fn]) => fn.Properties!.FunctionName === functionProperties(template, group).FunctionName,
    )![0];

  it.each(surfacesWithRoutes)('each function routed on %s may be invoked by that API stage only', (surface) => {
    for (const group of groupsOn(surface)) {
      const own = permissions().filter(
        (permission) => functionIdOfPermission(permission) === functionIdOf(group) && mentions(permission.SourceArn, apiId(surface)),
      );
      expect(own).toHaveLength(1);
      expect(own[0]!.Principal).toBe('apigateway.amazonaws.com');
      expect(own[0]!.Action).toBe('lambda:InvokeFunction');
      expect(mentions(own[0]!.SourceArn, `/${surfaces[surface].stage}/*/*`)).toBe(true);
    }
  });

  it('functions without routes (e.g. the chunk worker) cannot be invoked by API Gateway', () => {
    const routed = new Set(allRoutes.map((route) => functionIdOf(route.group)));
    const unrouted = Object.keys(resourcesOf(template, 'AWS::Lambda::Function')).filter((id) => !routed.has(id) && id !== functionIdOf('request-authorizer'));
    expect(unrouted).toContain(functionIdOf('chunk-worker'));
    const fromApiGateway = permissions().filter((permission) => permission.Principal === 'apigateway.amazonaws.com');
    for (const id of unrouted) expect(fromApiGateway.filter((permission) => functionIdOfPermission(permission) === id)).toEqual([]);
    // The only other invoker: the scheduled-broadcast sweep rule (test/cdk/broadcast-scheduling.test.ts).
    for (const permission of permissions().filter((candidate) => candidate.Principal !== 'apigateway.amazonaws.com')) {
      expect(permission.Principal).toBe('events.amazonaws.com');
      expect(functionIdOfPermission(permission)).toBe(functionIdOf('broadcast-scheduler'));
    }
  });

  it('the request authorizer may be invoked by the broadcast API as its authorizer only', () => {
    const own = permissions().filter((permission) => functionIdOfPermission(permission) === functionIdOf('request-authorizer'));
    expect(own).toHaveLength(1);
    expect(own[0]!.Principal).toBe('apigateway.amazonaws.com');
    expect(mentions(own[0]!.SourceArn, apiId('broadcast'))).toBe(true);
    expect(mentions(own[0]!.SourceArn, '/authorizers/')).toBe(true);
  });
});

describe.each(surfaceNames)('surface %s', (surface) => {
  const definition = surfaces[surface];

  it('has one stage named after the surface, with metrics, tracing, a default throttle and no data trace', () => {
    const stages = Object.entries(resourcesOf(template, 'AWS::ApiGateway::Stage')).filter(([, stage]) => stage.Properties!.RestApiId.Ref === apiId(surface));
    expect(stages).toHaveLength(1);
    const [, stage] = stages[0]!;
    expect(stage.Properties!.StageName).toBe(definition.stage);
    expect(stage.Properties!.TracingEnabled).toBe(true);
    // The stage default (`*/*`) plus one entry per guarded route (its own throttle; next test).
    const guarded = routes.filter((route) => route.surface === surface && methodThrottleOf(route));
    expect(stage.Properties!.MethodSettings).toHaveLength(1 + guarded.length);
    const settings = stage.Properties!.MethodSettings.find((entry: { ResourcePath: string }) => entry.ResourcePath === '/*');
    expect(settings).toEqual(
      expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', DataTraceEnabled: false, MetricsEnabled: true, LoggingLevel: 'ERROR' }),
    );
    expect(settings.ThrottlingRateLimit).toBeGreaterThan(0);
    expect(settings.ThrottlingBurstLimit).toBeGreaterThanOrEqual(settings.ThrottlingRateLimit);
    // The stage waits for the account-level CloudWatch role that stage logging needs.
    const account = Object.keys(resourcesOf(template, 'AWS::ApiGateway::Account'));
    expect(account).toHaveLength(1);
    expect(stage.DependsOn).toEqual(expect.arrayContaining(account));
  });

  it('gives every guarded route (no usage plan meters it) its own method throttle, logged and measured like the stage', () => {
    const stage = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage')).find((candidate) => candidate.Properties!.RestApiId.Ref === apiId(surface))!;
    const stageDefault = stage.Properties!.MethodSettings.find((entry: { ResourcePath: string }) => entry.ResourcePath === '/*');
    // API Gateway's method-setting path: `/~1api~1v2~1…` (each `/` of the resource path as `~1`); the root is `/`.
    const escaped = (path: string) => (path === '/' ? '/' : `/${path.replace(/\//g, '~1')}`);
    for (const route of routes.filter((candidate) => candidate.surface === surface && candidate.guard)) {
      const throttle = methodThrottleOf(route)!;
      const own = stage.Properties!.MethodSettings.filter(
        (entry: { ResourcePath: string; HttpMethod: string }) => entry.ResourcePath === escaped(resourcePath(route)) && entry.HttpMethod === route.method,
      );
      expect([`${route.method} ${resourcePath(route)}`, own]).toEqual([
        `${route.method} ${resourcePath(route)}`,
        [
          {
            ResourcePath: escaped(resourcePath(route)),
            HttpMethod: route.method,
            ThrottlingRateLimit: throttle.rateLimit,
            ThrottlingBurstLimit: throttle.burstLimit,
            DataTraceEnabled: false,
            MetricsEnabled: true,
            LoggingLevel: 'ERROR',
          },
        ],
      ]);
      // Tighter than the stage, except where the route is its API's whole traffic: Meta's webhook, and the
      // clicks API's redirect (people following links, its own ceiling; route-guards.ts).
      if (route.guard !== 'meta-webhook' && route.guard !== 'click-redirect') expect(throttle.rateLimit).toBeLessThan(stageDefault.ThrottlingRateLimit);
    }
  });

  it('writes JSON access logs with request id, ip, method, path, status and latency, and no headers or bodies', () => {
    const stage = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage')).find((candidate) => candidate.Properties!.RestApiId.Ref === apiId(surface))!;
    const format = JSON.parse(stage.Properties!.AccessLogSetting.Format) as Record<string, string>;
    expect(format).toEqual(
      expect.objectContaining({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        method: '$context.httpMethod',
        resourcePath: '$context.resourcePath',
        status: '$context.status',
        latency: '$context.responseLatency',
      }),
    );
    for (const value of Object.values(format)) {
      expect(value).toMatch(/^\$context\.[A-Za-z.]+$/);
      expect(value).not.toMatch(/header|body|\$input|requestOverride|authorization/i);
      expect(value).not.toBe('$context.identity.apiKey');
    }
    const logGroupId = stage.Properties!.AccessLogSetting.DestinationArn['Fn::GetAtt'][0];
    expect(resourcesOf(template, 'AWS::Logs::LogGroup')[logGroupId]!.Properties!.RetentionInDays).toBe(30);
  });

  it('lists binary media types exactly where routes take multipart bodies or answer binary content', () => {
    const api = resourcesOf(template, 'AWS::ApiGateway::RestApi')[apiId(surface)]!.Properties!;
    const own = routes.filter((route) => route.surface === surface);
    const expected = [
      ...(own.some((route) => route.body === 'multipart') ? ['multipart/form-data'] : []),
      ...(own.some((route) => route.binaryResponse) ? ['application/octet-stream'] : []),
    ];
    expect(api.BinaryMediaTypes ?? []).toEqual(expected);
    // The /upstream wrapper's media and flow-JSON uploads and its media download.
    if (surface === 'upstream') expect(api.BinaryMediaTypes).toEqual(['multipart/form-data', 'application/octet-stream']);
  });

  it(`takes API keys from its request authorizer (an x-api-key or a person's key) ${surface === 'broadcast' ? '' : '(not configured)'}`.trim(), () => {
    const api = resourcesOf(template, 'AWS::ApiGateway::RestApi')[apiId(surface)]!.Properties!;
    const keyed = surface === 'broadcast' || routes.some((route) => route.surface === surface && route.auth === 'broadcast-api-key');
    if (keyed) expect(api.ApiKeySourceType).toBe('AUTHORIZER');
    else expect(api.ApiKeySourceType).toBeUndefined();
    expect(api.EndpointConfiguration).toEqual({ Types: ['REGIONAL'] });
  });

  it.each(Object.keys(definition.gatewayResponses) as GatewayResponseKind[])('maps gateway response %s with status, JSON body and headers', (kind) => {
    const expected = definition.gatewayResponses[kind];
    const found = Object.values(resourcesOf(template, 'AWS::ApiGateway::GatewayResponse')).filter(
      (response) => response.Properties!.RestApiId.Ref === apiId(surface) && response.Properties!.ResponseType === expectedResponseTypes[kind],
    );
    expect(found).toHaveLength(1);
    const properties = found[0]!.Properties!;
    expect(properties.StatusCode).toBe(String(expected.statusCode));
    expect(properties.ResponseTemplates).toEqual({ 'application/json': expected.body });
    if (expected.body.includes('$context.requestId')) expect(properties.ResponseTemplates['application/json']).toContain('"$context.requestId"');
    const expectedHeaders = Object.fromEntries(Object.entries(expected.headers ?? {}).map(([name, value]) => [`gatewayresponse.header.${name}`, `'${value}'`]));
    expect(properties.ResponseParameters ?? {}).toEqual(expectedHeaders);
  });

  it.each([
    ['THROTTLED', '1'],
    ['QUOTA_EXCEEDED', '3600'],
  ])("answers the usage plan's %s with 429, Retry-After %s and the application's 429 body (retryAfterSeconds, code)", (type, retryAfter) => {
    const found = Object.values(resourcesOf(template, 'AWS::ApiGateway::GatewayResponse')).find(
      (response) => response.Properties!.RestApiId.Ref === apiId(surface) && response.Properties!.ResponseType === type,
    );
    const properties = found!.Properties!;
    expect(properties.StatusCode).toBe('429');
    expect(properties.ResponseParameters).toEqual({ 'gatewayresponse.header.Retry-After': `'${retryAfter}'` });
    const templateText = properties.ResponseTemplates['application/json'] as string;
    // Gateway response templates only substitute variables: every one used must be one API Gateway fills.
    for (const variable of templateText.match(/\$[a-zA-Z.]+/g) ?? [])
      expect(['$context.requestId', '$context.path', '$context.httpMethod', '$context.requestTime']).toContain(variable);
    const body = JSON.stringify(JSON.parse(templateText));
    const code = type === 'THROTTLED' ? 'RATE_LIMITED' : 'QUOTA_EXCEEDED';
    // The docs and clicks surfaces' errors (the plain shape of the webhook function's refusals: they answer
    // browsers, not API clients) carry no wait in the body; every other REST surface's do.
    if (surface !== 'docs' && surface !== 'clicks') expect(body).toContain(`"retryAfterSeconds":${retryAfter}`);
    expect(body).toContain(surface === 'organization' ? '"statusCode":429' : `"${code}"`);
  });

  it('configures no gateway response the manifest does not declare', () => {
    const types = Object.values(resourcesOf(template, 'AWS::ApiGateway::GatewayResponse'))
      .filter((response) => response.Properties!.RestApiId.Ref === apiId(surface))
      .map((response) => response.Properties!.ResponseType as string)
      .sort();
    // The broadcast surface's keyed methods have the request authorizer: its refusal, deny and failure answers too.
    const authorizerTypes = definition.authorizerResponses ? ['UNAUTHORIZED', 'ACCESS_DENIED', 'AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR'] : [];
    expect(types).toEqual(
      [...(Object.keys(definition.gatewayResponses) as GatewayResponseKind[]).map((kind) => expectedResponseTypes[kind]), ...authorizerTypes].sort(),
    );
    if (surface !== 'broadcast') expect(types).not.toContain('ACCESS_DENIED');
  });

  it('outputs the surface URL with stage and basePath', () => {
    // The console's own address (ConsoleUrl, test/cdk/people-sign-in.test.ts) names the broadcast API too.
    // ConsoleUrl and ClickBaseUrl are addresses under a surface's URL (the console page, the tracked links' base without the trailing slash).
    const outputs = Object.entries(template.findOutputs('*')).filter(([key]) => key !== 'ConsoleUrl' && key !== 'ClickBaseUrl');
    const url = outputs.map(([, output]) => output).filter((output) => mentions(output.Value, apiId(surface)));
    expect(url).toHaveLength(1);
    expect(mentions(url[0]!.Value, stageId(surface))).toBe(true);
    expect(JSON.stringify(url[0]!.Value)).toMatch(new RegExp(`"/${definition.basePath.replace(/^\//, '').replace(/\//g, '\\/')}"\\]`));
  });
});

it('gives the API integrations no reference to function resources (no function → usage plan → stage → method cycle)', () => {
  const functionIds = Object.keys(resourcesOf(template, 'AWS::Lambda::Function'));
  for (const method of methods) for (const id of functionIds) expect(mentions(method.properties, `"${id}"`)).toBe(false);
});
