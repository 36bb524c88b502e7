/**
 * AWS WAF (v2, REGIONAL) in front of every REST API stage (WAF cannot be associated with an HTTP
 * API: a surface served by one, Meta's webhooks today, is not given here): Amazon's IP reputation list, a per-IP
 * rule of its own for each group of guarded routes (runtime-contract/route-guards.ts: health,
 * key generation, the earlier sends, Meta's webhook and its handshake), a per-IP rate rule for
 * everything else, and the AWS managed common rule set. Two web ACLs, because the webhooks
 * surface (Meta) and the API surfaces (businesses) need different limits and overrides; which
 * surface gets which follows from its routes' auth kinds. docs/OPERATIONS.md "WAF" explains every choice.
 *
 * Credentials never reach WAF's records: each web ACL logs to its own CloudWatch log group with the
 * `x-api-key` and `Authorization` headers and the query string (`hub.verify_token`) redacted, and
 * sampled requests are off, since WAF keeps sampled requests' headers whole and cannot redact them.
 */
import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { routeGuards, type RouteGuard, type RouteGuardName } from '../../runtime-contract/route-guards';
import {
  rateLimitClasses,
  resourcePath,
  surfaces,
  type RestApiSurfaceName,
  type RouteDefinition,
  type SurfaceName,
} from '../../runtime-contract/route-manifest';
import { pascal } from '../naming';
import type { FirewallLimits } from '../settings';
import type { SurfaceApi } from './surface-api';

export type FirewallProfile = 'api' | 'webhooks';

/**
 * Rules of the common rule set that only count (logged in WAF metrics and sampled requests, never
 * blocked), by profile.
 *
 * SizeRestrictions_BODY blocks bodies over 8 KiB, but a 10,000-recipient broadcast accept is
 * ~150 KiB and Meta posts signed webhook batches of up to 256 KiB; API Gateway (10 MB) and the
 * pipeline (413 above 5 MB) already bound body size. WAF inspects only a body's first 8 KiB anyway.
 *
 * On the webhooks surface the other body rules count too: Meta's bodies carry end users' own
 * words (message text, names), which may look like script or path tricks. A false positive would
 * refuse a batch Meta retries and finally drops, and the body is authenticated by its signature
 * before anything reads it. On the API surfaces, bodies come from authenticated businesses and the
 * body rules stay blocking.
 */
export const countedCommonRules: Record<FirewallProfile, readonly string[]> = {
  api: ['SizeRestrictions_BODY'],
  webhooks: ['SizeRestrictions_BODY', 'CrossSiteScripting_BODY', 'GenericLFI_BODY', 'GenericRFI_BODY', 'EC2MetaDataSSRF_BODY'],
};

/** A surface whose every route is authenticated by Meta's signature is a webhook receiver. */
export const firewallProfileOf = (routes: readonly RouteDefinition[]): FirewallProfile =>
  routes.length > 0 && routes.every((route) => route.auth === 'meta-signature') ? 'webhooks' : 'api';

/** Routes rate-limited per source IP in the application (the unauthenticated key generation). */
export const perIpLimitedRoutes = (routes: readonly RouteDefinition[]): RouteDefinition[] =>
  routes.filter((route) => rateLimitClasses[route.rateLimit].scope === 'source-ip');

/** The routes among `routes` whose guard has a WAF rule of its own, by guard, in the guards' order. */
export function perIpGuardedRoutes(routes: readonly RouteDefinition[]): Array<[RouteGuardName, RouteDefinition[]]> {
  return (Object.keys(routeGuards) as RouteGuardName[])
    .filter((guard) => (routeGuards[guard] as RouteGuard).perIp)
    .map((guard): [RouteGuardName, RouteDefinition[]] => [guard, routes.filter((route) => route.guard === guard)])
    .filter(([, guarded]) => guarded.length > 0);
}

/** The WAF rule name of a guard: `key-generation` → `KeyGenerationPerIp`. */
export const guardRuleName = (guard: RouteGuardName): string => `${pascal(guard)}PerIp`;

export interface ApiFirewallProps {
  /** The REST APIs (an HTTP API cannot take a web ACL). */
  surfaceApis: Record<RestApiSurfaceName, SurfaceApi>;
  /** Every manifest route, by surface. */
  routesOf: (surface: SurfaceName) => readonly RouteDefinition[];
  limits: FirewallLimits;
  /** Prefix of the web ACL names (unique per account and region). */
  namePrefix: string;
}

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  // Sampled requests keep every header (API keys, bearer tokens) and cannot be redacted; the logs below can.
  sampledRequestsEnabled: false,
  metricName,
});

/** What WAF's logs never hold: the credentials of every surface (header names are lower case in WAF). */
export const redactedFields: wafv2.CfnLoggingConfiguration.FieldToMatchProperty[] = [
  { singleHeader: { Name: 'x-api-key' } },
  { singleHeader: { Name: 'authorization' } },
  // Meta's handshake carries hub.verify_token in the query string; WAF redacts the query string whole.
  { queryString: {} },
];

/** Rate rules answer 429 with a Retry-After of one evaluation window, like the application's limits. */
const tooManyRequests = (windowSeconds: number): wafv2.CfnWebACL.RuleActionProperty => ({
  block: { customResponse: { responseCode: 429, responseHeaders: [{ name: 'Retry-After', value: String(windowSeconds) }] } },
});

export class ApiFirewall extends Construct {
  readonly webAcls = new Map<FirewallProfile, wafv2.CfnWebACL>();
  readonly associations = new Map<SurfaceName, wafv2.CfnWebACLAssociation>();

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const surfaceNames = Object.keys(props.surfaceApis) as RestApiSurfaceName[];
    const profileOf = new Map(surfaceNames.map((surface) => [surface, firewallProfileOf(props.routesOf(surface))]));

    for (const profile of new Set(profileOf.values())) {
      const routes = surfaceNames.filter((surface) => profileOf.get(surface) === profile).flatMap((surface) => props.routesOf(surface));
      const webAcl = this.createWebAcl(profile, routes, props);
      this.webAcls.set(profile, webAcl);
      this.logRequests(profile, webAcl, props.namePrefix);
    }
    for (const surface of surfaceNames) {
      const stage = props.surfaceApis[surface].api.deploymentStage;
      this.associations.set(
        surface,
        new wafv2.CfnWebACLAssociation(this, `${pascal(surface)}Association`, {
          resourceArn: stage.stageArn,
          webAclArn: this.webAcls.get(profileOf.get(surface)!)!.attrArn,
        }),
      );
    }
  }

  /** WAF's request log, credentials redacted. The group's name must start with `aws-waf-logs-`. */
  private logRequests(profile: FirewallProfile, webAcl: wafv2.CfnWebACL, namePrefix: string): void {
    const id = pascal(profile);
    const logGroupName = `aws-waf-logs-${namePrefix}-${profile}`;
    const group = new logs.LogGroup(this, `${id}WafLogs`, {
      logGroupName,
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const logging = new wafv2.CfnLoggingConfiguration(this, `${id}WafLogging`, {
      resourceArn: webAcl.attrArn,
      // A log group destination is its ARN without the trailing `:*` that the group's Arn attribute has.
      logDestinationConfigs: [
        Stack.of(this).formatArn({ service: 'logs', resource: 'log-group', resourceName: logGroupName, arnFormat: ArnFormat.COLON_RESOURCE_NAME }),
      ],
      redactedFields,
    });
    logging.node.addDependency(group);
  }

  private createWebAcl(profile: FirewallProfile, routes: readonly RouteDefinition[], props: ApiFirewallProps): wafv2.CfnWebACL {
    const id = pascal(profile);
    const perIpLimit = profile === 'webhooks' ? props.limits.webhookRequestsPerIpPer5Minutes : props.limits.apiRequestsPerIpPer5Minutes;
    const rules: wafv2.CfnWebACL.RuleProperty[] = [
      {
        name: 'AmazonIpReputationList',
        priority: 0,
        statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAmazonIpReputationList' } },
        overrideAction: { none: {} },
        visibilityConfig: visibility(`${id}IpReputation`),
      },
    ];

    const guarded = perIpGuardedRoutes(routes);
    guarded.forEach(([guard, guardedRoutes], index) => rules.push(guardRule(id, guard, guardedRoutes, props.limits.routeGuardsPerIp[guard], 1 + index)));
    const guardedMatches = guarded.flatMap(([, guardedRoutes]) => guardedRoutes.map(routeMatch));

    rules.push(perIpRule(id, perIpLimit, guardedMatches, guarded.length + 1), commonRuleSet(id, profile, guarded.length + 2));

    // Descriptions allow letters, digits, spaces and =:#@/-,. only (CloudFormation pattern).
    return new wafv2.CfnWebACL(this, `${id}WebAcl`, {
      name: `${props.namePrefix}-${profile}`,
      description:
        profile === 'webhooks'
          ? 'Meta webhook receiver: IP reputation, per-IP rules of the webhook and its handshake, per-IP rate, common rules with body rules counted'
          : 'API surfaces: IP reputation, per-IP rules of health, key generation and earlier sends, per-IP rate, common rules with body size counted',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${id}WebAcl`),
      rules,
    });
  }
}

/**
 * One route by path ending and method. ENDS_WITH the resource path: matches with the stage prefix
 * (execute-api URL) and behind a custom domain's base path mapping alike. URL-decoded first so
 * %2D cannot dodge it. A path parameter cannot be matched by an ending, so no guard with a WAF
 * rule may hold such a route.
 */
function routeMatch(route: RouteDefinition): wafv2.CfnWebACL.StatementProperty {
  const path = resourcePath(route);
  const prefix = trailingParameterPrefix(path);
  if ((path.includes('{') && prefix === undefined) || path === '/')
    throw new Error(`WAF: ${route.method} ${path} (guard ${route.guard}) cannot be matched by its path ending; give its guard no perIp rule`);
  // A route whose only parameter ends its path (the tracked links' /r/{token}): its stage and the fixed part begin the path.
  const pathMatch: wafv2.CfnWebACL.StatementProperty = prefix
    ? {
        byteMatchStatement: {
          fieldToMatch: { uriPath: {} },
          positionalConstraint: 'STARTS_WITH',
          searchString: `/${surfaces[route.surface].stage}${prefix}`,
          textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
        },
      }
    : {
        byteMatchStatement: {
          fieldToMatch: { uriPath: {} },
          positionalConstraint: 'ENDS_WITH',
          searchString: path,
          textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
        },
      };
  return {
    andStatement: {
      statements: [
        pathMatch,
        {
          byteMatchStatement: {
            fieldToMatch: { method: {} },
            positionalConstraint: 'EXACTLY',
            searchString: route.method,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
      ],
    },
  };
}

/** `/r/` of `/r/{token}`: the fixed part before a single trailing parameter; undefined for any other shape. */
function trailingParameterPrefix(path: string): string | undefined {
  const match = /^((?:\/[^{}/]+)+\/)\{[^{}/]+\}$/.exec(path);
  return match?.[1];
}

const anyOf = (statements: wafv2.CfnWebACL.StatementProperty[]): wafv2.CfnWebACL.StatementProperty =>
  statements.length === 1 ? statements[0]! : { orStatement: { statements } };

/** A guard's per-IP rule over its routes (limit from settings, window from the guard). */
function guardRule(
  id: string,
  guard: RouteGuardName,
  routes: readonly RouteDefinition[],
  limit: number | undefined,
  priority: number,
): wafv2.CfnWebACL.RuleProperty {
  const perIp = (routeGuards[guard] as RouteGuard).perIp!;
  return {
    name: guardRuleName(guard),
    priority,
    statement: {
      rateBasedStatement: {
        limit: limit ?? perIp.limit,
        evaluationWindowSec: perIp.windowSeconds,
        aggregateKeyType: 'IP',
        scopeDownStatement: anyOf(routes.map(routeMatch)),
      },
    },
    action: tooManyRequests(perIp.windowSeconds),
    visibilityConfig: visibility(`${id}${guardRuleName(guard)}`),
  };
}

/** Every other request per IP; the guarded routes are counted by their own rules only (the webhook's is far above this one). */
function perIpRule(id: string, limit: number, guardedMatches: wafv2.CfnWebACL.StatementProperty[], priority: number): wafv2.CfnWebACL.RuleProperty {
  return {
    name: 'PerIpRateLimit',
    priority,
    statement: {
      rateBasedStatement: {
        limit,
        evaluationWindowSec: 300,
        aggregateKeyType: 'IP',
        ...(guardedMatches.length > 0 ? { scopeDownStatement: { notStatement: { statement: anyOf(guardedMatches) } } } : {}),
      },
    },
    action: tooManyRequests(300),
    visibilityConfig: visibility(`${id}PerIp`),
  };
}

/** AWS's common rule set, with the profile's counted rules. */
function commonRuleSet(id: string, profile: FirewallProfile, priority: number): wafv2.CfnWebACL.RuleProperty {
  return {
    name: 'CommonRuleSet',
    priority,
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name: 'AWSManagedRulesCommonRuleSet',
        ruleActionOverrides: countedCommonRules[profile].map((name) => ({ name, actionToUse: { count: {} } })),
      },
    },
    overrideAction: { none: {} },
    visibilityConfig: visibility(`${id}CommonRuleSet`),
  };
}
