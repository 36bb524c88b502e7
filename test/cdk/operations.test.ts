/**
 * Watched and protected: alarms for every function and queue of the resource definitions and every
 * surface's API stage (REST or HTTP), every REST API stage behind WAF (an HTTP API takes none), one
 * dashboard, and the alarm email only when `alarmEmail` is given.
 * Everything expected is derived from the definitions, so a new function or queue without an
 * alarm fails here.
 */
import type { CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { eventSources } from '../../runtime-contract/event-sources';
import { alarmThresholds, platformMetrics, queueAgeThresholdSeconds } from '../../runtime-contract/observability';
import { functions, queues, type FunctionName, type QueueName } from '../../runtime-contract/resource-definitions';
import { guardRuleName, perIpGuardedRoutes, perIpLimitedRoutes } from '../../lib/constructs/api-firewall';
import { routeGuards, type RouteGuard } from '../../runtime-contract/route-guards';
import { routes as allRoutes } from '../../runtime-contract/all-routes';
import { httpApiSurfaceNames, resourcePath, restApiSurfaceNames, surfaces, type RestApiSurfaceName } from '../../runtime-contract/route-manifest';
import { functionLogicalId, mentions, resourcesOf, synthesizePlatform, type SynthesizedPlatform } from './support/platform';

type SurfaceName = RestApiSurfaceName;
/** The routes REST APIs serve: the only ones WAF can guard. */
const routes = allRoutes.filter((route): route is (typeof allRoutes)[number] & { surface: SurfaceName } => surfaces[route.surface].frontDoor === 'rest-api');

let synth: SynthesizedPlatform;
let template: Template;
/** The OperationsStack's template: the alarms, their topic and the dashboard (lib/operations-stack.ts). */
let operations: Template;

beforeAll(() => {
  synth = synthesizePlatform();
  template = synth.api;
  operations = synth.operations;
});

type Alarm = { Properties?: Record<string, any> };
const alarms = (): Alarm[] => Object.values(resourcesOf(operations, 'AWS::CloudWatch::Alarm'));
const dimension = (alarm: Alarm, name: string): unknown =>
  (alarm.Properties!.Dimensions ?? []).find((candidate: { Name: string }) => candidate.Name === name)?.Value;
const topicId = () => synth.platform.operations.getLogicalId(synth.platform.operations.observability.topic.node.defaultChild as CfnElement);
const notifiesTopic = (alarm: Alarm) => mentions(alarm.Properties!.AlarmActions, topicId());

const queueLogicalId = (queue: 'queues' | 'deadLetterQueues', name: QueueName) =>
  synth.platform.stateful.getLogicalId(synth.platform.stateful[queue][name].node.defaultChild as CfnElement);
/** Alarms on a metric of a queue: its QueueName dimension is the stateful stack's export of that queue. */
const queueAlarms = (queue: 'queues' | 'deadLetterQueues', name: QueueName, metricName: string): Alarm[] =>
  alarms().filter((alarm) => alarm.Properties!.MetricName === metricName && mentions(dimension(alarm, 'QueueName'), queueLogicalId(queue, name)));

describe('alarms', () => {
  it.each(Object.keys(functions) as FunctionName[])('function %s: Errors and Throttles alarms notify the topic', (name) => {
    // The dimension is the ApiStack's export of the function resource tagged with the definition's name.
    const functionId = functionLogicalId(template, name);
    for (const metricName of ['Errors', 'Throttles']) {
      const own = alarms().filter((alarm) => alarm.Properties!.MetricName === metricName && mentions(dimension(alarm, 'FunctionName'), `Ref${functionId}`));
      expect(own).toHaveLength(1);
      expect(own[0]!.Properties).toEqual(
        expect.objectContaining({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: 1, TreatMissingData: 'notBreaching' }),
      );
      expect(notifiesTopic(own[0]!)).toBe(true);
    }
  });

  it.each(Object.keys(queues) as QueueName[])('queue %s: age of the oldest message; its dead-letter queue: depth > 0 and age', (name) => {
    const [age] = queueAlarms('queues', name, 'ApproximateAgeOfOldestMessage');
    expect(age?.Properties).toEqual(expect.objectContaining({ Threshold: queueAgeThresholdSeconds(name), ComparisonOperator: 'GreaterThanThreshold' }));
    const [depth] = queueAlarms('deadLetterQueues', name, 'ApproximateNumberOfMessagesVisible');
    expect(depth?.Properties).toEqual(expect.objectContaining({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', Statistic: 'Maximum' }));
    const [deadLetterAge] = queueAlarms('deadLetterQueues', name, 'ApproximateAgeOfOldestMessage');
    // A dead-letter queue a function consumes (the outbound one) empties itself: an hour-old message there is one it cannot settle.
    const consumed = eventSources.some((source) => source.deadLetters && source.queue === name);
    expect(deadLetterAge?.Properties!.Threshold).toBe(
      consumed
        ? alarmThresholds.deadLetterQueues.consumedAgeSeconds
        : queues[name].deadLetterRetentionDays * 86_400 * alarmThresholds.deadLetterQueues.ageFractionOfRetention,
    );
    for (const alarm of [age!, depth!, deadLetterAge!]) expect(notifiesTopic(alarm)).toBe(true);
  });

  it('a chunk settled from the dead-letter queue pages: ChunksDeadLettered of chunk-dead-letters, sum ≥ 1 in 5 minutes', () => {
    const own = alarms().filter((alarm) => alarm.Properties!.MetricName === platformMetrics.chunksDeadLettered);
    expect(own).toHaveLength(1);
    expect(own[0]!.Properties).toEqual(
      expect.objectContaining({
        Statistic: 'Sum',
        Threshold: 1,
        Period: 300,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      }),
    );
    expect(dimension(own[0]!, 'service')).toBe('chunk-dead-letters');
    expect(notifiesTopic(own[0]!)).toBe(true);
  });

  it('an audit entry not written pages: AuditWriteFailed of each function writing the audit table, sum ≥ 1 in 5 minutes', () => {
    const own = alarms().filter((alarm) => alarm.Properties!.MetricName === platformMetrics.auditWriteFailed);
    const recorders = (Object.keys(functions) as FunctionName[]).filter((name) => functions[name].tables.audit === 'write').sort();
    expect(recorders).toEqual(
      expect.arrayContaining(['broadcast-audiences', 'broadcast-campaigns', 'broadcast-send', 'broadcast-webhooks', 'organization-admin']),
    );
    expect(own.map((alarm) => dimension(alarm, 'service')).sort()).toEqual(recorders);
    for (const alarm of own) {
      expect(alarm.Properties).toEqual(
        expect.objectContaining({
          Statistic: 'Sum',
          Threshold: 1,
          Period: 300,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
        }),
      );
      expect(notifiesTopic(alarm)).toBe(true);
    }
  });

  it('the chunk queue pages when a chunk waits 15 minutes', () => {
    expect(queueAlarms('queues', 'outboundMessages', 'ApproximateAgeOfOldestMessage')[0]!.Properties!.Threshold).toBe(15 * 60);
  });

  it.each(restApiSurfaceNames)('REST API %s: 5XXError rate and p99 Latency of its stage', (surface) => {
    const { api, stageName } = synth.platform.api.surfaceApis[surface];
    const own = alarms().filter((alarm) => dimension(alarm, 'ApiName') === api.restApiName && dimension(alarm, 'Stage') !== undefined);
    const serverErrors = own.find((alarm) => alarm.Properties!.MetricName === '5XXError')!;
    expect(serverErrors.Properties).toEqual(expect.objectContaining({ Statistic: 'Average', Threshold: alarmThresholds.apis.serverErrorRate.threshold }));
    const latency = own.find((alarm) => alarm.Properties!.MetricName === 'Latency')!;
    expect(latency.Properties).toEqual(expect.objectContaining({ ExtendedStatistic: 'p99', Threshold: alarmThresholds.apis.p99LatencyMs.threshold }));
    expect(mentions(dimension(serverErrors, 'Stage'), synth.platform.api.getLogicalId(api.deploymentStage.node.defaultChild as CfnElement))).toBe(true);
    expect(stageName).toBe(surfaces[surface].stage);
    expect(notifiesTopic(serverErrors) && notifiesTopic(latency)).toBe(true);
  });

  it.each(httpApiSurfaceNames)('HTTP API %s: 5xx rate and p99 Latency of its stage', (surface) => {
    const { api, stage, stageName } = synth.platform.api.httpSurfaceApis[surface];
    const apiId = synth.platform.api.getLogicalId(api.node.defaultChild as CfnElement);
    const own = alarms().filter((alarm) => mentions(dimension(alarm, 'ApiId') ?? null, apiId) && dimension(alarm, 'Stage') !== undefined);
    const serverErrors = own.find((alarm) => alarm.Properties!.MetricName === '5xx')!;
    expect(serverErrors.Properties).toEqual(
      expect.objectContaining({ Namespace: 'AWS/ApiGateway', Statistic: 'Average', Threshold: alarmThresholds.apis.serverErrorRate.threshold }),
    );
    const latency = own.find((alarm) => alarm.Properties!.MetricName === 'Latency')!;
    expect(latency.Properties).toEqual(expect.objectContaining({ ExtendedStatistic: 'p99', Threshold: alarmThresholds.apis.p99LatencyMs.threshold }));
    expect(stage.stageName).toBe(surfaces[surface].stage);
    expect(stageName).toBe(surfaces[surface].stage);
    expect(notifiesTopic(serverErrors) && notifiesTopic(latency)).toBe(true);
  });

  it('every alarm notifies the one topic on alarm and on recovery', () => {
    expect(alarms().length).toBeGreaterThan(0);
    for (const alarm of alarms()) {
      expect(notifiesTopic(alarm)).toBe(true);
      expect(mentions(alarm.Properties!.OKActions, topicId())).toBe(true);
    }
  });
});

describe('alarm topic', () => {
  it('is encrypted with a rotating customer managed key CloudWatch may use, and refuses plain HTTP', () => {
    const topic = resourcesOf(operations, 'AWS::SNS::Topic')[topicId()]!.Properties!;
    const keyId: string = topic.KmsMasterKeyId['Fn::GetAtt'][0];
    const key = resourcesOf(operations, 'AWS::KMS::Key')[keyId]!.Properties!;
    expect(key.EnableKeyRotation).toBe(true);
    expect(mentions(key.KeyPolicy, 'cloudwatch.amazonaws.com')).toBe(true);
    const policies = Object.values(resourcesOf(operations, 'AWS::SNS::TopicPolicy')).filter((policy) => mentions(policy.Properties!.Topics, topicId()));
    expect(mentions(policies, 'aws:SecureTransport')).toBe(true);
  });

  it('has no subscription without alarmEmail', () => {
    expect(Object.keys(resourcesOf(operations, 'AWS::SNS::Subscription'))).toEqual([]);
  });

  it('with -c alarmEmail=..., has exactly that email subscription; a malformed address is refused', () => {
    const withEmail = synthesizePlatform({ alarmEmail: 'ops@example.com' }).operations;
    const subscriptions = Object.values(resourcesOf(withEmail, 'AWS::SNS::Subscription'));
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]!.Properties).toEqual(expect.objectContaining({ Protocol: 'email', Endpoint: 'ops@example.com' }));
    expect(() => synthesizePlatform({ alarmEmail: 'not-an-address' })).toThrow(/alarmEmail/);
  });
});

describe('dashboard', () => {
  it('exists, with a widget for every function, queue and REST API', () => {
    const dashboards = Object.values(resourcesOf(operations, 'AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]!.Properties!.DashboardBody);
    for (const name of Object.keys(functions)) expect(body).toContain(`λ ${name}:`);
    for (const name of Object.keys(queues)) expect(body).toContain(`SQS ${name} dead letters`);
    for (const surface of Object.keys(surfaces)) expect(body).toContain(`API ${surface} (`);
  });
});

describe('WAF', () => {
  const webAcls = () => resourcesOf(template, 'AWS::WAFv2::WebACL');
  const associations = () => Object.values(resourcesOf(template, 'AWS::WAFv2::WebACLAssociation'));
  const aclOf = (surface: SurfaceName) => {
    const { api } = synth.platform.api.surfaceApis[surface];
    const stageId = synth.platform.api.getLogicalId(api.deploymentStage.node.defaultChild as CfnElement);
    const own = associations().filter((association) => mentions(association.Properties!.ResourceArn, stageId));
    expect(own).toHaveLength(1);
    return webAcls()[own[0]!.Properties!.WebACLArn['Fn::GetAtt'][0]]!.Properties!;
  };
  const rule = (acl: Record<string, any>, name: string) => (acl.Rules as Array<Record<string, any>>).find((candidate) => candidate.Name === name);
  const counted = (acl: Record<string, any>): string[] =>
    rule(acl, 'CommonRuleSet')!.Statement.ManagedRuleGroupStatement.RuleActionOverrides.map((override: { Name: string }) => override.Name);

  it.each(restApiSurfaceNames)('stage of %s: a regional web ACL with IP reputation, per-IP rate and the common rule set', (surface) => {
    const acl = aclOf(surface);
    expect(acl.Scope).toBe('REGIONAL');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    expect(rule(acl, 'AmazonIpReputationList')!.Statement.ManagedRuleGroupStatement.Name).toBe('AWSManagedRulesAmazonIpReputationList');
    expect(rule(acl, 'CommonRuleSet')!.Statement.ManagedRuleGroupStatement.Name).toBe('AWSManagedRulesCommonRuleSet');
    expect(rule(acl, 'PerIpRateLimit')!.Statement.RateBasedStatement).toEqual(expect.objectContaining({ AggregateKeyType: 'IP' }));
    // Broadcast accepts (10,000 recipients) and Meta's batches (≤ 256 KiB) exceed the rule's 8 KiB.
    expect(counted(acl)).toContain('SizeRestrictions_BODY');
  });

  it('the key-generation routes get a stricter per-IP rule scoped to their paths', () => {
    const keyRoutes = perIpLimitedRoutes(routes);
    expect(keyRoutes.map((route) => route.operation)).toContain('generateKey');
    for (const route of keyRoutes) {
      const limited = rule(aclOf(route.surface as SurfaceName), 'KeyGenerationPerIp')!.Statement.RateBasedStatement;
      expect(limited.Limit).toBeLessThan(rule(aclOf(route.surface as SurfaceName), 'PerIpRateLimit')!.Statement.RateBasedStatement.Limit);
      expect(limited.EvaluationWindowSec).toBe(60);
      expect(JSON.stringify(limited.ScopeDownStatement)).toContain(JSON.stringify(resourcePath(route)));
    }
  });

  it('no web ACL on an HTTP API (WAF cannot be associated with one): the webhooks surface has none, and no webhooks web ACL exists', () => {
    expect(httpApiSurfaceNames).toContain('webhooks');
    const httpApiIds = httpApiSurfaceNames.map((surface) =>
      synth.platform.api.getLogicalId(synth.platform.api.httpSurfaceApis[surface].api.node.defaultChild as CfnElement),
    );
    for (const association of associations()) for (const id of httpApiIds) expect(mentions(association.Properties!.ResourceArn, id)).toBe(false);
    expect(associations()).toHaveLength(restApiSurfaceNames.length);
    expect(Object.values(webAcls()).map((acl) => acl.Properties!.Name)).toEqual([expect.stringMatching(/-api$/)]);
    // The API surfaces keep the body rules blocking.
    expect(counted(aclOf('broadcast'))).toEqual(['SizeRestrictions_BODY']);
  });

  it('logs every web ACL with the credentials redacted, and keeps no sampled requests (WAF cannot redact those)', () => {
    const loggings = Object.values(resourcesOf(template, 'AWS::WAFv2::LoggingConfiguration'));
    expect(loggings).toHaveLength(Object.keys(webAcls()).length);
    for (const logging of loggings) {
      expect(logging.Properties!.RedactedFields).toEqual([
        { SingleHeader: { Name: 'x-api-key' } },
        { SingleHeader: { Name: 'authorization' } },
        { QueryString: {} },
      ]);
      expect(JSON.stringify(logging.Properties!.LogDestinationConfigs)).toContain('log-group:aws-waf-logs-');
    }
    for (const acl of Object.values(webAcls())) {
      const visibilities = [
        acl.Properties!.VisibilityConfig,
        ...(acl.Properties!.Rules as Array<Record<string, any>>).map((candidate) => candidate.VisibilityConfig),
      ];
      expect(visibilities.every((visibility) => visibility.SampledRequestsEnabled === false)).toBe(true);
    }
  });

  it('rate limits come from context', () => {
    const custom = synthesizePlatform({ wafApiRateLimit: '1234', wafKeyGenerationRateLimit: '20' }).api;
    const acl = Object.values(resourcesOf(custom, 'AWS::WAFv2::WebACL')).find((candidate) => rule(candidate.Properties!, 'KeyGenerationPerIp'))!.Properties!;
    expect(rule(acl, 'PerIpRateLimit')!.Statement.RateBasedStatement.Limit).toBe(1234);
    expect(rule(acl, 'KeyGenerationPerIp')!.Statement.RateBasedStatement.Limit).toBe(20);
  });

  describe('guarded routes (runtime-contract/route-guards.ts) get a per-IP rule of their own', () => {
    const guarded = perIpGuardedRoutes(routes);

    it('for health, key generation, the earlier sends and the tracked links (the Meta webhook and its handshake are on an HTTP API: route throttles, no WAF)', () => {
      expect(guarded.map(([guard]) => guard)).toEqual(['health', 'key-generation', 'earlier-send', 'click-redirect']);
    });

    it.each(guarded.map(([guard, guardedRoutes]) => [guard, guardedRoutes] as const))(
      '%s: scoped to its paths and methods, at its limit and window',
      (guard, guardedRoutes) => {
        const perIp = (routeGuards[guard] as RouteGuard).perIp!;
        for (const route of guardedRoutes) {
          const limited = rule(aclOf(route.surface as SurfaceName), guardRuleName(guard))!;
          expect(limited.Statement.RateBasedStatement).toEqual(
            expect.objectContaining({ Limit: perIp.limit, EvaluationWindowSec: perIp.windowSeconds, AggregateKeyType: 'IP' }),
          );
          expect(limited.Action.Block.CustomResponse).toEqual({
            ResponseCode: 429,
            ResponseHeaders: [{ Name: 'Retry-After', Value: String(perIp.windowSeconds) }],
          });
          const scope = JSON.stringify(limited.Statement.RateBasedStatement.ScopeDownStatement);
          // A path ending in its only parameter (the tracked links' /r/{token}) is matched by its stage and fixed start, any other by its end.
          const trailingParameter = /^((?:\/[^{}/]+)+\/)\{[^{}/]+\}$/.exec(resourcePath(route));
          expect(scope).toContain(
            trailingParameter
              ? `"STARTS_WITH","SearchString":"/${surfaces[route.surface as SurfaceName].stage}${trailingParameter[1]}"`
              : JSON.stringify(resourcePath(route)),
          );
          expect(scope).toContain(`"SearchString":"${route.method}"`);
        }
      },
    );

    it('the general per-IP rule does not count the guarded routes', () => {
      expect(rule(aclOf('broadcast'), 'PerIpRateLimit')!.Statement.RateBasedStatement.ScopeDownStatement.NotStatement).toBeDefined();
    });

    it('rules keep distinct priorities: reputation first, then the guards, the general rate, the common set', () => {
      for (const acl of Object.values(webAcls())) {
        const rules = acl.Properties!.Rules as Array<{ Name: string; Priority: number }>;
        const byPriority = [...rules].sort((a, b) => a.Priority - b.Priority).map((candidate) => candidate.Name);
        expect(new Set(rules.map((candidate) => candidate.Priority)).size).toBe(rules.length);
        expect(byPriority[0]).toBe('AmazonIpReputationList');
        expect(byPriority.slice(-2)).toEqual(['PerIpRateLimit', 'CommonRuleSet']);
      }
    });
  });
});
