/** Hash routing: `#/` the campaign list, `#/campaigns/<jobId>` one campaign. The key never appears in a URL. */
export interface PageHandle {
  /** Stops the page's timers when another page replaces it. */
  leave(): void;
}

export type Route = { page: 'list' } | { page: 'campaign'; jobId: string };

/**
 * The route of a location hash.
 *
 * @example
 * routeOf('#/campaigns/pub_1'); // { page: 'campaign', jobId: 'pub_1' }
 */
export function routeOf(hash: string): Route {
  const match = /^#\/campaigns\/([^/]+)$/.exec(hash);
  return match ? { page: 'campaign', jobId: decodeURIComponent(match[1]!) } : { page: 'list' };
}
