/** SurfaceApi with routes the manifest does not have yet: the resource tree, methods and settings follow whatever routes it is given. */
import { App, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SurfaceApi } from '../../lib/constructs/surface-api';
import { routes } from '../../runtime-contract/all-routes';
import { resourcePath, surfaces, type RouteDefinition } from '../../runtime-contract/route-manifest';
import { methodsOf, resourcesOf } from './support/platform';

const group = routes[0]!.group;
const route = (method: RouteDefinition['method'], path: string, extra: Partial<RouteDefinition> = {}): RouteDefinition => ({
  surface: 'upstream',
  method,
  path,
  group,
  operation: `${method.toLowerCase()}${path.replace(/[^a-zA-Z]/g, '')}`,
  auth: 'none',
  rateLimit: 'none',
  ...extra,
});

const grownRoutes: RouteDefinition[] = [
  route('POST', '/upstream/{phoneNumberId}/messages'),
  route('GET', '/upstream/{phoneNumberId}/media/{mediaId}'),
  route('DELETE', '/upstream/{phoneNumberId}/media/{mediaId}'),
  route('POST', '/upstream/{phoneNumberId}/media', { body: 'multipart' }),
  route('GET', '/upstream/templates', { auth: 'broadcast-api-key' }),
];

function build(routesOfSurface: RouteDefinition[]) {
  const stack = new Stack(new App(), 'Surface', { env: { account: '123456789012', region: 'eu-west-1' } });
  const handler = new lambda.Function(stack, 'Fn', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async () => ({})'),
  });
  const integration = new apigateway.AwsIntegration({
    proxy: true,
    service: 'lambda',
    path: '2015-03-31/functions/arn:aws:lambda:eu-west-1:123456789012:function:fn/invocations',
  });
  const surfaceApi = new SurfaceApi(stack, 'UpstreamApi', {
    surfaceName: 'upstream',
    surface: surfaces.upstream,
    routes: routesOfSurface,
    targetOf: () => ({ integration, handler }),
    restApiName: 'test-upstream',
    stageThrottle: { rateLimit: 10, burstLimit: 20 },
  });
  return { stack, surfaceApi };
}

describe('a surface with more routes than the manifest has today', () => {
  let template: Template;
  let surfaceApi: SurfaceApi;

  beforeAll(() => {
    const built = build(grownRoutes);
    surfaceApi = built.surfaceApi;
    template = Template.fromStack(built.stack);
  });

  it('builds nested resources with path parameters and one method per route', () => {
    const found = methodsOf(template)
      .map((method) => `${method.httpMethod} ${method.path}`)
      .sort();
    expect(found).toEqual(grownRoutes.map((candidate) => `${candidate.method} ${resourcePath(candidate)}`).sort());
    expect(found).toContain('GET /api/v2/upstream/{phoneNumberId}/media/{mediaId}');
    // `{phoneNumberId}` exists once although four routes run through it.
    const parameterResources = Object.values(resourcesOf(template, 'AWS::ApiGateway::Resource')).filter(
      (resource) => resource.Properties!.PathPart === '{phoneNumberId}',
    );
    expect(parameterResources).toHaveLength(1);
  });

  it('requires the API key only on the keyed route and shares one integration URI', () => {
    const methods = methodsOf(template);
    expect(methods.filter((method) => method.properties.ApiKeyRequired === true).map((method) => method.path)).toEqual(['/api/v2/upstream/templates']);
    expect(new Set(methods.map((method) => JSON.stringify(method.properties.Integration.Uri))).size).toBe(1);
  });

  it('accepts multipart bodies as binary once a route declares one', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['multipart/form-data'] });
  });

  it('grants the function one invoke permission for the whole stage', () => {
    expect(Object.keys(resourcesOf(template, 'AWS::Lambda::Permission'))).toHaveLength(1);
    expect(surfaceApi.methods.size).toBe(grownRoutes.length);
  });
});

describe('manifest mistakes fail at synth time', () => {
  it('two path parameters under one parent', () => {
    expect(() => build([route('GET', '/upstream/{phoneNumberId}'), route('DELETE', '/upstream/{id}')])).toThrow(/one path parameter per level/);
  });

  it('a route declared twice', () => {
    expect(() => build([route('GET', '/upstream/x'), route('GET', '/upstream/x')])).toThrow(/declared twice/);
  });

  it('no binary media types without multipart routes', () => {
    const template = Template.fromStack(build([route('GET', '/upstream/x')]).stack);
    expect(Object.values(resourcesOf(template, 'AWS::ApiGateway::RestApi'))[0]!.Properties!.BinaryMediaTypes).toBeUndefined();
  });
});
