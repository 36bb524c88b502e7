/** HTTP vocabulary shared by the route manifest and the upstream route table (pure types, imports nothing). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/**
 * The public API surfaces (one REST API each, route-manifest.ts). Here rather than in the manifest
 * so the error bodies the manifest's gateway responses reuse (shared/http/surface-responses.ts) can
 * name them without an import cycle.
 */
export type SurfaceName = 'broadcast' | 'organization' | 'v1' | 'upstream' | 'webhooks' | 'docs' | 'clicks';

/**
 * What serves a surface in AWS (its `frontDoor` in route-manifest.ts). Both hand the function the
 * same REST-style proxy event (an HTTP API with payload format 1.0), so no handler knows which.
 * - `rest-api`: an API Gateway REST API ($3.50 per million requests): API keys and usage plans,
 *   method throttles, WAF, gateway responses in the surface's own body.
 * - `http-api`: an API Gateway HTTP API ($1.00 per million, per 512 KB): route throttles and access
 *   logs, but no API keys, usage plans or WAF, and its own fixed refusals. For a surface nobody
 *   keys whose callers send many small requests: Meta's webhooks (docs/OPERATIONS.md "Front doors").
 */
export type FrontDoorKind = 'rest-api' | 'http-api';

/** The surfaces an HTTP API serves (their definitions say `frontDoor: 'http-api'`, checked by the type of `surfaces`). */
export type HttpApiSurfaceName = 'webhooks';
/** The surfaces a REST API serves. */
export type RestApiSurfaceName = Exclude<SurfaceName, HttpApiSurfaceName>;
