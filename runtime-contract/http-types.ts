/** HTTP vocabulary shared by the route manifest and the upstream route table (pure types, imports nothing). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The public API surfaces (one REST API each, route-manifest.ts). Here rather than in the manifest
 * so the error bodies the manifest's gateway responses reuse (shared/http/surface-responses.ts) can
 * name them without an import cycle.
 */
export type SurfaceName = 'broadcast' | 'organization' | 'v1' | 'upstream' | 'webhooks' | 'docs';
