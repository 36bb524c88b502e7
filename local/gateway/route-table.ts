/**
 * Routing as API Gateway does it: one stage per surface, each a tree of resources; a request
 * resolves to the most specific resource (static segments before `{param}` ones), then to a
 * method of that resource. Compiled once from the route list when the gateway starts.
 */
import type { MethodThrottle } from '../../runtime-contract/route-guards';
import {
  methodThrottleOf,
  rateLimitClasses,
  requiresGatewayApiKey,
  resourcePath,
  surfaces,
  type EndpointGroup,
  type RateLimitClass,
  type RouteDefinition,
  type SurfaceDefinition,
  type SurfaceName,
} from '../../runtime-contract/route-manifest';
import { functions } from '../../runtime-contract/resource-definitions';
import { shortId } from './context-values';

/** A route's gateway settings: the function it invokes, its usage-plan and method throttles and key requirement. */
export interface RouteGatewaySettings {
  functionName: string;
  memoryLimitInMB: string;
  /** Per key and method (the usage plan's), for routes that require a key. */
  throttle: { rateLimit: number; burstLimit: number } | undefined;
  /** The stage's method-level throttle: every caller of the method together (runtime-contract/route-guards.ts). */
  methodThrottle: MethodThrottle | undefined;
  requiresApiKey: boolean;
}

export interface CompiledResource {
  surface: SurfaceName;
  resource: string;
  resourceId: string;
  /** Per segment: a static string, or null for a `{param}` segment. */
  segments: Array<string | null>;
  paramNames: Array<string | undefined>;
  methods: Map<string, CompiledRoute>;
}

export interface CompiledRoute extends RouteGatewaySettings {
  route: RouteDefinition;
  resource: CompiledResource;
  functionTimeoutMs: number;
}

export interface CompiledStage {
  stage: string;
  /** Surface whose gateway responses answer unmatched paths of this stage. */
  surface: SurfaceDefinition;
  surfaceName: SurfaceName;
  apiId: string;
  resources: CompiledResource[];
}

export interface RouteTableOptions {
  routes: readonly RouteDefinition[];
  functionTimeoutMs: (group: EndpointGroup) => number;
  routeSettings?: (route: RouteDefinition) => Partial<RouteGatewaySettings>;
}

/** Stages by name, with every route compiled into its surface's stage. Throws on an unknown surface or a duplicate route. */
export function compileRouteTable(options: RouteTableOptions): Map<string, CompiledStage> {
  const stages = new Map<string, CompiledStage>();
  // Stages of every surface (a surface without routes is still an API with gateway responses).
  for (const [name, surface] of Object.entries(surfaces) as Array<[SurfaceName, SurfaceDefinition]>) {
    if (!stages.has(surface.stage))
      stages.set(surface.stage, { stage: surface.stage, surface, surfaceName: name, apiId: shortId(`restapi:${name}`, 10), resources: [] });
  }
  for (const route of options.routes) {
    const stage = stages.get(surfaces[route.surface].stage);
    if (!stage) throw new Error(`unknown surface ${route.surface}`);
    const compiled = resourceOf(stage, route);
    if (compiled.methods.has(route.method)) throw new Error(`duplicate route ${route.method} ${compiled.resource}`);
    compiled.methods.set(route.method, {
      route,
      resource: compiled,
      functionName: `local-${route.group}`,
      memoryLimitInMB: String(functions[route.group]?.memoryMb ?? 128),
      functionTimeoutMs: options.functionTimeoutMs(route.group),
      throttle: (rateLimitClasses[route.rateLimit] as RateLimitClass).usagePlanThrottle,
      methodThrottle: methodThrottleOf(route),
      requiresApiKey: requiresGatewayApiKey(route),
      ...options.routeSettings?.(route),
    });
  }
  return stages;
}

/** The stage's resource of a route, created on its first route. */
function resourceOf(stage: CompiledStage, route: RouteDefinition): CompiledResource {
  const resource = resourcePath(route);
  let compiled = stage.resources.find((candidate) => candidate.resource === resource);
  if (!compiled) {
    const segments = splitPath(resource);
    const isParam = (segment: string): boolean => segment.startsWith('{') && segment.endsWith('}');
    compiled = {
      surface: route.surface,
      resource,
      resourceId: shortId(`resource:${route.surface}:${resource}`, 6),
      segments: segments.map((segment) => (isParam(segment) ? null : segment)),
      paramNames: segments.map((segment) => (isParam(segment) ? segment.slice(1, -1) : undefined)),
      methods: new Map(),
    };
    stage.resources.push(compiled);
  }
  return compiled;
}

/** '/a/b' → ['a', 'b']; a trailing slash is ignored, as API Gateway does. */
export const splitPath = (path: string): string[] => {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed === '/' || trimmed === '' ? [] : trimmed.slice(1).split('/');
};

/** The most specific resource matching `segments`: static segments win position by position. */
export const matchResource = (resources: readonly CompiledResource[], segments: readonly string[]): CompiledResource | undefined => {
  let best: CompiledResource | undefined;
  for (const candidate of resources) {
    if (!matches(candidate, segments)) continue;
    if (!best || moreSpecific(candidate, best)) best = candidate;
  }
  return best;
};

const matches = (candidate: CompiledResource, segments: readonly string[]): boolean => {
  if (candidate.segments.length !== segments.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const expected = candidate.segments[i];
    const actual = segments[i] as string;
    if (expected === null ? actual === '' : expected !== actual) return false;
  }
  return true;
};

/** At the first position where one is static and the other a parameter, the static one wins. */
const moreSpecific = (candidate: CompiledResource, best: CompiledResource): boolean => {
  for (let i = 0; i < candidate.segments.length; i++) {
    const a = candidate.segments[i] !== null;
    const b = best.segments[i] !== null;
    if (a !== b) return a;
  }
  return false;
};

/** The path parameters of a matched resource, null when it has none (as in API Gateway's event). */
export const pathParametersOf = (resource: CompiledResource, segments: readonly string[]): Record<string, string> | null => {
  let pathParameters: Record<string, string> | null = null;
  for (let i = 0; i < resource.paramNames.length; i++) {
    const name = resource.paramNames[i];
    if (name !== undefined) {
      pathParameters ??= {};
      pathParameters[name] = segments[i] as string;
    }
  }
  return pathParameters;
};
