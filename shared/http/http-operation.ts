import type { AuthKind, CredentialAuthKind, RouteDefinition } from '../../runtime-contract/route-manifest';
import type { RateLimiter } from '../rate-limiting/rate-limiter';
import type { KeyScope } from '../tenancy/tenancy-entities';
import type { PersonIdentity } from '../people/person';
import type { AuditLog } from '../audit/ports';

export type CredentialKind = CredentialAuthKind;

/** Who called, as proven by the route's credential (`none` and `meta-signature` routes have no caller). */
export interface AuthenticatedCaller<Kind extends CredentialKind = CredentialKind> {
  organizationId: string;
  credentialId: string;
  credentialKind: Kind;
  /** What the credential may act on (bound sender, generate-key's earlier-only scope); the use cases apply it. */
  scope?: KeyScope;
  /** v1 API plan of the organization. */
  plan?: string;
  apiAddOn?: boolean;
  /**
   * Set when a person called with their own token (`Authorization: Bearer`, docs/PEOPLE.md) instead
   * of the organization's key: who they are and their role. `credentialId` is then `person:<personId>`,
   * so rate limits and the audit log count the person.
   */
  person?: PersonIdentity;
}

/** The caller an operation of an auth kind receives: none for `none`, a proven caller otherwise. */
export type CallerFor<Auth extends AuthKind> = Auth extends CredentialKind ? AuthenticatedCaller<Auth> : undefined;

/**
 * A person's sign-in presented on a route people may call, instead of the organization's key
 * (docs/PEOPLE.md "Tokens"): the Bearer token and the `x-organization-id` header, if any.
 */
export interface PersonPresentation {
  token: string;
  organizationId?: string;
}

/** Authenticates the route's credential, or, when `person` is given, a person's sign-in (a `broadcast-api-key` caller with `person`). */
export type CallerAuthenticator = (kind: CredentialKind, presentedSecret: string | undefined, person?: PersonPresentation) => Promise<AuthenticatedCaller>;

/** What the shared HTTP pipeline itself needs from the composition root. */
/** Which numbers are an organization's (the rate limiter's check before a sender gets a bucket of its own). */
export interface SenderNumbers {
  isOrganizationNumber(organizationId: string, digits: string): Promise<boolean>;
}

export interface HttpPipelineDependencies {
  authenticate: CallerAuthenticator;
  rateLimiter: RateLimiter;
  clock: { now(): Date };
  /** Required by a group with a route counted per sender or phone number (rate-limit.middleware.ts); others may omit it. */
  senderNumbers?: SenderNumbers;
  /** Where the pipeline records each state-changing call (middlewares/audit.middleware.ts): required by a group with an audited route, checked when it is built. */
  auditLog?: AuditLog;
  /** Told when an entry could not be recorded after its retries: the function counts `AuditWriteFailed` (alarmed). */
  auditWriteFailed?: () => void;
}

export interface HttpRequest<Caller extends AuthenticatedCaller | undefined = AuthenticatedCaller | undefined> {
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
  /** Raw body bytes for multipart and raw routes. */
  rawBody?: Buffer;
  sourceIp: string;
  /** Typed by the operation's auth kind: set on every authenticated route, absent on `none`. */
  caller: Caller;
}

export interface HttpResult {
  statusCode: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Binary answer instead of JSON `body` (sent base64-encoded with `isBase64Encoded`). */
  rawBody?: Buffer;
  /** Text answer instead of JSON `body` (CSV, the webhook handshake), sent as it is; text/plain unless `headers` give another Content-Type. */
  textBody?: string;
}

/**
 * One operation of an endpoint group. It declares the auth kind it was written for; the group
 * refuses to build when a route of the manifest uses another, so `request.caller` is typed, never
 * optional on an authenticated route.
 */
export interface HttpOperation<Dependencies, Auth extends AuthKind = AuthKind> {
  readonly auth: Auth;
  readonly handle: (request: HttpRequest<CallerFor<Auth>>, dependencies: Dependencies) => Promise<HttpResult>;
}

/** Any operation over `Dependencies`, whatever its auth kind (what a group's operation table holds). */
export type AnyHttpOperation<Dependencies> = { [Auth in AuthKind]: HttpOperation<Dependencies, Auth> }[AuthKind];

export function httpOperation<Auth extends AuthKind, Dependencies = unknown>(
  auth: Auth,
  handle: (request: HttpRequest<CallerFor<Auth>>, dependencies: Dependencies) => Promise<HttpResult>,
): HttpOperation<Dependencies, Auth> {
  return { auth, handle };
}
