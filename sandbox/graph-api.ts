/**
 * The Graph router. It resolves a request in the order Graph itself does — path → access token →
 * object → edge and method → handler — and dispatches through the table in routes/index.ts.
 * Everything here is synchronous but drawing a QR image (a download route answers a promise); the
 * HTTP layer adds latency and holds requests that should time out.
 */
import { GraphError, invalidAccessToken, nonexistingField, sessionExpired, unknownPathComponents, unsupportedRequest } from './graph-errors';
import { PHONE_NUMBER_NODE, TEMPLATE_NODE, WABA_NODE } from './graph-listing';
import { DOWNLOAD_ROUTES, GRAPH_ROUTES } from './routes';
import { createContext, type GraphDependencies, type GraphOutcome, type GraphRequest, type GraphRoute } from './routes/route-kit';
import type { GraphNode, NodeKind } from './sandbox-state';

export type { GraphDependencies, GraphOutcome, GraphRequest } from './routes/route-kit';

const VERSIONED_PATH = /^\/v\d+\.\d+(\/.*)?$/;

/** Graph's type names, quoted in "nonexisting field" errors. */
const NODE_TYPES: Record<NodeKind, string> = {
  waba: WABA_NODE.type,
  phone: PHONE_NUMBER_NODE.type,
  template: TEMPLATE_NODE.type,
  media: 'WhatsAppBusinessMedia',
  flow: 'WhatsAppFlow',
};

/** Graph takes the token from `Authorization: Bearer|OAuth <token>` or `?access_token=`. */
function accessToken(request: GraphRequest): string | undefined {
  const header = request.authorization;
  if (header !== undefined) {
    const match = /^(?:Bearer|OAuth)\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  return request.url.searchParams.get('access_token') ?? undefined;
}

function decodePathSegment(segment: string, pathname: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw unknownPathComponents(pathname);
  }
}

export class GraphApi {
  /** Routes by `kind edge`, e.g. `phone messages` or `waba ` for the node itself. */
  private readonly routes = new Map<string, GraphRoute[]>();
  /** Edges that take a third path segment. */
  private readonly itemEdges = new Set<string>();
  private readonly rootEdges = new Set<string>();

  constructor(
    private readonly deps: GraphDependencies,
    table: readonly GraphRoute[] = GRAPH_ROUTES,
  ) {
    for (const route of table) {
      const key = `${route.node} ${route.edge ?? ''}`;
      this.routes.set(key, [...(this.routes.get(key) ?? []), route]);
      if (route.withSubId && route.edge !== null) this.itemEdges.add(route.edge);
      if (route.node === 'root' && route.edge !== null) this.rootEdges.add(route.edge);
    }
  }

  handle(request: GraphRequest): GraphOutcome | Promise<GraphOutcome> {
    try {
      return this.route(request);
    } catch (error) {
      if (error instanceof GraphError) {
        return { kind: 'respond', status: error.httpStatus, body: error.toBody(), headers: error.headers };
      }
      throw error;
    }
  }

  private route(request: GraphRequest): GraphOutcome | Promise<GraphOutcome> {
    const { pathname } = request.url;
    const download = DOWNLOAD_ROUTES.find(([prefix]) => pathname === prefix || pathname === prefix.slice(0, -1));
    if (download !== undefined && request.method === 'GET') return download[1](request, accessToken(request), this.deps);

    const versioned = VERSIONED_PATH.exec(pathname);
    if (versioned === null) throw unknownPathComponents(pathname);
    const segments = (versioned[1] ?? '').split('/').filter((segment) => segment.length > 0);
    const depth = segments[1] !== undefined && this.itemEdges.has(segments[1]) ? 3 : 2;
    if (segments.length === 0 || segments.length > depth) {
      throw unknownPathComponents(`/${segments.slice(segments.length === 0 ? 0 : depth).join('/')}`);
    }
    const [objectId = '', edge, subId] = segments.map((segment) => decodePathSegment(segment, pathname));

    // Graph rejects a bad token before it looks anything up, so unknown ids cannot be probed.
    const token = accessToken(request);
    if (token === undefined || !this.deps.state.isKnownToken(token)) throw invalidAccessToken();
    if (this.deps.state.isExpiredToken(token)) throw sessionExpired();

    if (this.rootEdges.has(objectId) && edge === undefined) {
      return this.dispatch(request, null, 'root', objectId, objectId, undefined);
    }
    const node = this.deps.state.node(objectId);
    if (node === undefined) throw unsupportedRequest(request.method, objectId);
    if (node.owner.account.accessToken !== token) throw invalidAccessToken();
    return this.dispatch(request, node, node.kind, objectId, edge ?? null, subId);
  }

  private dispatch(
    request: GraphRequest,
    node: GraphNode | null,
    kind: NodeKind | 'root',
    objectId: string,
    edge: string | null,
    subId: string | undefined,
  ): GraphOutcome {
    const candidates = (this.routes.get(`${kind} ${edge ?? ''}`) ?? []).filter((route) => route.withSubId === (subId !== undefined));
    const match = candidates.find((route) => route.method === request.method);
    if (match === undefined) {
      // An edge the object does not have reads as an unknown field; a wrong method as unsupported.
      if (candidates.length === 0 && edge !== null && kind !== 'root' && request.method === 'GET' && subId === undefined) {
        throw nonexistingField(edge, NODE_TYPES[kind]);
      }
      throw unsupportedRequest(request.method, objectId);
    }
    return match.handle(createContext(request, node, objectId, subId, this.deps));
  }
}
