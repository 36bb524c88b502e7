/**
 * `GET /` of the local gateway: one origin serves every surface locally, so its root says where
 * they are instead of a bare 404 (API Gateway has no such page: each surface is its own API).
 */
import { publicPath, surfaces, type RouteDefinition, type SurfaceName } from '../../runtime-contract/route-manifest';

export interface LocalIndex {
  service: string;
  /** Each surface's base URL with what it is. */
  surfaces: Record<SurfaceName, { url: string; description: string }>;
  /** The health check: a first call that needs no key. */
  health?: string;
  /** The rendered API reference and its OpenAPI document. */
  docs?: string;
  /** The campaign console (docs/CONSOLE.md). */
  console?: string;
  openApi?: string;
  /** Other local services (the Cloud API sandbox and its inspection endpoint). */
  [link: string]: unknown;
}

/**
 * The index answered at `GET /` for `origin` (`http://127.0.0.1:3000`), from the route table and
 * the links the runtime adds (`sandbox`, …).
 *
 * @example
 * localIndexOf('http://127.0.0.1:3000', routes, { sandbox: 'http://127.0.0.1:4010' }).docs; // 'http://127.0.0.1:3000/docs'
 */
export function localIndexOf(origin: string, routes: readonly RouteDefinition[], links: Readonly<Record<string, string>> = {}): LocalIndex {
  const url = (route: RouteDefinition | undefined) => (route ? `${origin}${publicPath(route)}` : undefined);
  const find = (group: string, operation: string) => routes.find((route) => route.group === group && route.operation === operation);
  const surfaceUrls = Object.fromEntries(
    (Object.keys(surfaces) as SurfaceName[]).map((name) => [
      name,
      { url: `${origin}/${surfaces[name].stage}${surfaces[name].basePath}`, description: surfaces[name].description },
    ]),
  ) as LocalIndex['surfaces'];
  const optional = (key: string, value: string | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    service: 'WhatsApp broadcast platform (local runtime)',
    ...optional('health', url(find('health', 'health'))),
    ...optional('docs', url(find('docs', 'docsPage'))),
    ...optional('openApi', find('docs', 'openApiDocument') ? `${origin}/openapi.json` : undefined),
    ...optional('console', find('console', 'consolePage') ? `${origin}/console/` : undefined),
    surfaces: surfaceUrls,
    ...links,
  };
}
