/** Usage plans: broadcast per-method throttles from the manifest's rate-limit classes, none on Bearer surfaces, and the key-issuing function's link to the plan. */
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { broadcastDailyQuota } from '../../lib/broadcast-usage-plan';
import { functions, type FunctionName } from '../../runtime-contract/resource-definitions';
import { routes } from '../../runtime-contract/all-routes';
import {
  rateLimitClasses,
  requiresGatewayApiKey,
  resourcePath,
  type RateLimitClass,
  type RestApiSurfaceName as SurfaceName,
} from '../../runtime-contract/route-manifest';
import {
  actionsOf,
  functionLogicalId,
  functionProperties,
  mentions,
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

const apiId = (surface: SurfaceName) => synth.platform.api.getLogicalId(synth.platform.api.surfaceApis[surface].api.node.defaultChild as CfnElement);
const stageId = (surface: SurfaceName) =>
  synth.platform.api.getLogicalId(synth.platform.api.surfaceApis[surface].api.deploymentStage.node.defaultChild as CfnElement);

const plans = () => resourcesOf(template, 'AWS::ApiGateway::UsagePlan');
const planNamed = (name: string): [string, Record<string, any>] => {
  const found = Object.entries(plans()).filter(([, plan]) => plan.Properties!.UsagePlanName === name);
  expect(found).toHaveLength(1);
  return [found[0]![0], found[0]![1].Properties!];
};

/** `/{full resource path}/{METHOD}` → throttle, for every keyed route whose class has a usage-plan throttle. */
const expectedMethodThrottles = (): Record<string, { RateLimit: number; BurstLimit: number }> =>
  Object.fromEntries(
    routes
      .filter((route) => requiresGatewayApiKey(route) && (rateLimitClasses[route.rateLimit] as RateLimitClass).usagePlanThrottle)
      .map((route) => {
        const throttle = (rateLimitClasses[route.rateLimit] as RateLimitClass).usagePlanThrottle!;
        return [`${resourcePath(route)}/${route.method}`, { RateLimit: throttle.rateLimit, BurstLimit: throttle.burstLimit }];
      }),
  );

describe('broadcast usage plan', () => {
  it('is attached to the broadcast API stage with per-method throttles equal to the manifest', () => {
    const [, plan] = planNamed('broadcast');
    const stage = (plan.ApiStages as Array<Record<string, any>>).find((candidate) => candidate.ApiId.Ref === apiId('broadcast'));
    expect(stage).toBeDefined();
    expect(stage!.Stage).toEqual({ Ref: stageId('broadcast') });
    expect(stage!.Throttle).toEqual(expectedMethodThrottles());
    expect(Object.keys(stage!.Throttle).length).toBeGreaterThan(0);
  });

  it('throttles no route that is not metered by a broadcast key', () => {
    const [, plan] = planNamed('broadcast');
    const throttled = (plan.ApiStages as Array<Record<string, any>>).flatMap((stage) => Object.keys(stage.Throttle ?? {}));
    for (const route of routes.filter((candidate) => !requiresGatewayApiKey(candidate))) {
      expect(throttled).not.toContain(`${resourcePath(route)}/${route.method}`);
    }
  });

  it('has a key-wide throttle at or above every method ceiling, and a daily quota', () => {
    const [, plan] = planNamed('broadcast');
    const methodThrottles = Object.values(expectedMethodThrottles());
    expect(plan.Throttle.RateLimit).toBeGreaterThanOrEqual(Math.max(...methodThrottles.map((throttle) => throttle.RateLimit)));
    expect(plan.Throttle.BurstLimit).toBeGreaterThanOrEqual(Math.max(...methodThrottles.map((throttle) => throttle.BurstLimit)));
    expect(plan.Quota).toEqual({ Limit: broadcastDailyQuota, Period: 'DAY' });
  });

  it('is not attached to the v1, organization or upstream APIs', () => {
    const [, plan] = planNamed('broadcast');
    const attached = (plan.ApiStages as Array<Record<string, any>>).map((stage) => stage.ApiId.Ref);
    for (const surface of ['v1', 'organization', 'upstream'] as const) expect(attached).not.toContain(apiId(surface));
  });
});

// v1 keys are Bearer tokens: no usage plan can meter them, so none is attached to the v1 stage and the
// per-plan limits live in the application (rate-limit class `v1-plan`; docs/ORGANIZATIONS-AND-V1.md).
it('creates only the broadcast plan: no usage plan is attached to the v1 stage', () => {
  expect(Object.values(plans()).map((plan) => plan.Properties!.UsagePlanName)).toEqual(['broadcast']);
  const attached = Object.values(plans()).flatMap((plan) => (plan.Properties!.ApiStages as Array<Record<string, any>>).map((stage) => stage.ApiId.Ref));
  expect(attached).not.toContain(apiId('v1'));
  expect(Object.keys(template.findOutputs('*')).filter((name) => /^V1.*UsagePlanId$/.test(name))).toEqual([]);
});

it('routes every v1 request through the application plan limit', () => {
  const v1Routes = routes.filter((route) => route.surface === 'v1');
  expect(v1Routes.length).toBeGreaterThan(0);
  for (const route of v1Routes) expect(route.rateLimit).toBe('v1-plan');
});

it('outputs the broadcast usage plan id', () => {
  const [id] = planNamed('broadcast');
  template.hasOutput('BroadcastUsagePlanId', { Value: { Ref: id } });
});

describe('API key management', () => {
  const names = Object.keys(functions) as FunctionName[];
  const managers = names.filter((name) => functions[name].managesApiKeys);
  const others = names.filter((name) => !functions[name].managesApiKeys);

  // Loops instead of it.each: the definitions may (for now) declare no key-managing function at all.
  it('managesApiKeys functions get BROADCAST_USAGE_PLAN_ID, create only generate-key tagged keys, add keys to the plan and delete only their own', () => {
    const [planId] = planNamed('broadcast');
    for (const name of managers) {
      expect(functionProperties(template, name).Environment.Variables.BROADCAST_USAGE_PLAN_ID).toEqual({ Ref: planId });
      const statements = roleStatements(template, name).filter((statement) => actionsOf(statement).some((action) => action.startsWith('apigateway:')));
      const bySid = Object.fromEntries(statements.map((statement) => [statement.Sid, statement]));
      expect(Object.keys(bySid).sort()).toEqual(['AddKeysToBroadcastPlan', 'CreateGenerateKeyApiKeys', 'DeleteOwnGenerateKeyApiKeys']);
      expect(bySid.CreateGenerateKeyApiKeys).toMatchObject({
        Action: 'apigateway:POST',
        Condition: { StringEquals: { 'aws:RequestTag/origin': 'generate-key' } },
      });
      expect(mentions(bySid.CreateGenerateKeyApiKeys!.Resource, '::/apikeys')).toBe(true);
      expect(bySid.AddKeysToBroadcastPlan).toMatchObject({ Action: 'apigateway:POST' });
      expect(mentions(bySid.AddKeysToBroadcastPlan!.Resource, planId) && mentions(bySid.AddKeysToBroadcastPlan!.Resource, '/keys')).toBe(true);
      expect(bySid.DeleteOwnGenerateKeyApiKeys).toMatchObject({
        Action: 'apigateway:DELETE',
        Condition: { StringEquals: { 'aws:ResourceTag/origin': 'generate-key' } },
      });
      expect(mentions(bySid.DeleteOwnGenerateKeyApiKeys!.Resource, '::/apikeys/*')).toBe(true);
    }
  });

  it('other functions get neither the plan id nor any apigateway action', () => {
    expect(others.length).toBeGreaterThan(0);
    for (const name of others) {
      expect(functionProperties(template, name).Environment.Variables.BROADCAST_USAGE_PLAN_ID).toBeUndefined();
      expect(
        roleStatements(template, name)
          .flatMap(actionsOf)
          .filter((action) => action.startsWith('apigateway:')),
      ).toEqual([]);
    }
  });
});

it('integrates functions so that one may reference the usage plan without a dependency cycle', () => {
  const json = template.toJSON();
  expect(() => Template.fromJSON(json)).not.toThrow();
  // Counter-check that the cycle detection would bite: make a broadcast method's function reference
  // the plan (as a key-issuing function does) AND integrate it by resource reference, CDK's default.
  const [planId] = planNamed('broadcast');
  const withCycle = JSON.parse(JSON.stringify(json)) as { Resources: Record<string, any> };
  const route = routes.find((candidate) => candidate.surface === 'broadcast')!;
  const functionId = functionLogicalId(template, route.group);
  withCycle.Resources[functionId].Properties.Environment.Variables.BROADCAST_USAGE_PLAN_ID = { Ref: planId };
  const method = Object.values(withCycle.Resources).find(
    (resource) =>
      resource.Type === 'AWS::ApiGateway::Method' &&
      resource.Properties.RestApiId.Ref === apiId('broadcast') &&
      resource.Properties.OperationName === route.operation,
  )!;
  expect(() => Template.fromJSON(withCycle)).not.toThrow();
  method.Properties.Integration.Uri = { 'Fn::GetAtt': [functionId, 'Arn'] };
  expect(() => Template.fromJSON(withCycle)).toThrow(/cycl/i);
});
