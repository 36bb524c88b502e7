/**
 * Tracked links in AWS (docs/OUTCOMES.md "Tracked links"): the clicks surface's own REST API with
 * GET and HEAD /r/{token} to the click-redirect function, no key, the guard's method throttle, its
 * per-IP WAF rule; the function's grants; CLICK_BASE_URL on the functions that read templates; the
 * ClickBaseUrl output.
 */
import type { CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { routeGuards } from '../../runtime-contract/route-guards';
import { surfaces } from '../../runtime-contract/route-manifest';
import { functions } from '../../runtime-contract/resource-definitions';
import {
  actionsOf,
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

const clicksApiId = () => synth.platform.api.getLogicalId(synth.platform.api.surfaceApis.clicks.api.node.defaultChild as CfnElement);

describe('the clicks front door', () => {
  it('is a REST API of its own, stage l, serving GET and HEAD /r/{token} to click-redirect without a key', () => {
    expect(surfaces.clicks.frontDoor).toBe('rest-api');
    const methods = methodsOf(template).filter((method) => method.apiLogicalId === clicksApiId());
    expect(methods.map((method) => `${method.httpMethod} ${method.path}`).sort()).toEqual(['GET /r/{token}', 'HEAD /r/{token}']);
    for (const method of methods) {
      expect(method.properties.ApiKeyRequired ?? false).toBe(false);
      expect(method.properties.AuthorizationType ?? 'NONE').toBe('NONE');
      expect(
        mentions(method.properties.Integration.Uri, `:function:${functionProperties(template, 'click-redirect').FunctionName as string}/invocations`),
      ).toBe(true);
    }
    const stages = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage')).filter((stage) => mentions(stage.Properties!.RestApiId, clicksApiId()));
    expect(stages.map((stage) => stage.Properties!.StageName)).toEqual(['l']);
    const throttles = JSON.stringify(stages[0]!.Properties!.MethodSettings);
    expect(throttles).toContain(String(routeGuards['click-redirect'].methodThrottle.rateLimit));
  });

  it('has a per-IP WAF rule for the redirect', () => {
    const acls = Object.values(resourcesOf(template, 'AWS::WAFv2::WebACL'));
    const rules = acls.flatMap((acl) => (acl.Properties!.Rules as Array<{ Name: string; Statement: unknown }>) ?? []);
    expect(rules.some((rule) => /click/i.test(rule.Name) && mentions(rule.Statement, String(routeGuards['click-redirect'].perIp.limit)))).toBe(true);
  });

  it('the function: messaging and tenancy as granted, the link key decrypt only under click-link, no upstream', () => {
    expect(functions['click-redirect'].tokenPurposes).toEqual(['click-link']);
    const kms = roleStatements(template, 'click-redirect').filter((statement) => actionsOf(statement).some((action) => action.startsWith('kms:')));
    expect(kms.flatMap(actionsOf)).toEqual(['kms:Decrypt']);
    expect(JSON.stringify(kms)).toContain('click-link');
    expect(JSON.stringify(kms)).not.toContain('upstream-token');
  });

  it('gives CLICK_BASE_URL to the functions that read templates and outputs ClickBaseUrl', () => {
    for (const name of ['broadcast-send', 'broadcast-discovery', 'broadcast-campaigns'] as const) {
      expect(functionProperties(template, name).Environment.Variables.CLICK_BASE_URL).toBeDefined();
    }
    expect(template.toJSON().Outputs.ClickBaseUrl).toBeDefined();
  });
});
