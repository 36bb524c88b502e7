import type { AuthKind, RouteDefinition } from '../../runtime-contract/route-manifest';
import type { RateLimiter } from '../rate-limiting/rate-limiter';
import type { KeyScope } from '../tenancy/tenancy-entities';

/** Who called, as proven by the route's credential. */
export interface AuthenticatedCaller {
  organizationId: string;
  credentialId: string;
  credentialKind: Exclude<AuthKind, 'none'>;
  /** What the credential may act on (bound sender, generate-key's earlier-only scope); the use cases apply it. */
  scope?: KeyScope;
  /** v1 API plan of the organization. */
  plan?: string;
  apiAddOn?: boolean;
}

export type CallerAuthenticator = (
  kind: Exclude<AuthKind, 'none'>,
  presentedSecret: string | undefined,
) => Promise<AuthenticatedCaller>;

/** What the shared HTTP pipeline itself needs from the composition root. */
export interface HttpPipelineDependencies {
  authenticate: CallerAuthenticator;
  rateLimiter: RateLimiter;
  clock: { now(): Date };
}

export interface HttpRequest {
  route: RouteDefinition;
  requestId: string;
  receivedAt: Date;
  /** Public path, stage included, as the client called it. */
  path: string;
  method: string;
  /** Header names lower-cased. */
  headers: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  pathParameters: Readonly<Record<string, string>>;
  /** Parsed JSON for JSON routes; undefined when the route takes no body. */
  body: unknown;
  /** Raw body bytes for multipart routes. */
  rawBody?: Buffer;
  sourceIp: string;
  /** Present on every route whose auth kind is not `none`. */
  caller?: AuthenticatedCaller;
}

export interface HttpResult {
  statusCode: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Binary answer instead of JSON `body` (sent base64-encoded with `isBase64Encoded`). */
  rawBody?: Buffer;
}

export type HttpOperation<Dependencies> = (request: HttpRequest, dependencies: Dependencies) => Promise<HttpResult>;

/** The caller of an authenticated route; the pipeline guarantees it is set. */
export function callerOf(request: HttpRequest): AuthenticatedCaller {
  if (!request.caller) throw new Error(`Route ${request.route.operation} ran without an authenticated caller`);
  return request.caller;
}
