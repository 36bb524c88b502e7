/**
 * The pieces every Graph route module uses: the request and outcome types, the dependencies a
 * handler may touch, and `route()` to declare one row of the routing table (graph-api.ts does
 * the dispatch: path → token → object → edge and method → handler).
 */
import type { AcceptedMessageLog } from '../accepted-message-log';
import type { MessageEventLog } from '../message-events';
import type { MessageIdGenerator } from '../message-ids';
import { GraphParams, readJsonBody } from '../request-params';
import type { SandboxControl } from '../sandbox-control';
import type { GraphNode, NodeKind, SandboxState } from '../sandbox-state';
import type { UrlSigner } from '../signed-urls';
import type { ThroughputLimiter } from '../throughput-limiter';
import type { UserDirectory } from '../user-directory';
import type { WebhookEmitter } from '../webhook-emitter';

export interface GraphRequest {
  method: string;
  url: URL;
  authorization: string | undefined;
  body: Buffer;
  contentType?: string;
}

export type GraphOutcome =
  | { kind: 'respond'; status: number; body: unknown; headers?: Record<string, string> }
  /** Raw bytes (media downloads, QR images, flow JSON assets). */
  | { kind: 'bytes'; status: number; body: Buffer; headers: Record<string, string> }
  /** Never answer: the request models a call Meta does not answer before the client gives up. */
  | { kind: 'hold' };

export interface GraphDependencies {
  state: SandboxState;
  control: SandboxControl;
  limiter: ThroughputLimiter;
  log: AcceptedMessageLog;
  events: MessageEventLog;
  messageIds: MessageIdGenerator;
  signer: UrlSigner;
  migrationPageSize: number;
  webhooks: WebhookEmitter;
  users: UserDirectory;
}

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface RouteContext<N extends GraphNode | null = GraphNode> {
  request: GraphRequest;
  /** The object the path names; null for root edges such as `/message_template_library`. */
  node: N;
  objectId: string;
  /** Third path segment, for edges that address items (`message_qrdls/{code}`). */
  subId?: string;
  deps: GraphDependencies;
  query: URLSearchParams;
  /** Body and query parameters, parsed once per request. */
  params(): GraphParams;
  /** The body as JSON (empty = {}), for routes whose payload is JSON only. */
  json(): unknown;
  /** `scheme://host` as the client addressed the sandbox, for URLs handed back (media, paging). */
  origin: string;
  now(): number;
}

export interface GraphRoute {
  node: NodeKind | 'root';
  /** null addresses the object itself. */
  edge: string | null;
  withSubId: boolean;
  method: HttpMethod;
  handle(context: RouteContext<GraphNode | null>): GraphOutcome;
}

type NodeOf<K extends NodeKind> = Extract<GraphNode, { kind: K }>;

/** One row of the routing table for an object kind. */
export function route<K extends NodeKind>(
  node: K,
  method: HttpMethod,
  edge: string | null,
  handle: (context: RouteContext<NodeOf<K>>) => GraphOutcome,
  options: { withSubId?: boolean } = {},
): GraphRoute {
  return {
    node,
    method,
    edge,
    withSubId: options.withSubId ?? false,
    handle: handle as GraphRoute['handle'],
  };
}

/** A row for an edge on no object, such as `GET /message_template_library`. */
export function rootRoute(method: HttpMethod, edge: string, handle: (context: RouteContext<null>) => GraphOutcome): GraphRoute {
  return { node: 'root', method, edge, withSubId: false, handle: handle as GraphRoute['handle'] };
}

export function ok(body: unknown): GraphOutcome {
  return { kind: 'respond', status: 200, body };
}

export const SUCCESS: GraphOutcome = { kind: 'respond', status: 200, body: { success: true } };

export function createContext<N extends GraphNode | null>(
  request: GraphRequest,
  node: N,
  objectId: string,
  subId: string | undefined,
  deps: GraphDependencies,
): RouteContext<N> {
  let params: GraphParams | undefined;
  return {
    request,
    node,
    objectId,
    ...(subId === undefined ? {} : { subId }),
    deps,
    query: request.url.searchParams,
    params: () => (params ??= GraphParams.read({ url: request.url, body: request.body, contentType: request.contentType })),
    json: () => readJsonBody(request.body),
    origin: request.url.origin,
    now: () => deps.state.now(),
  };
}
