/** Hash routes: `#/` the campaign list, `#/campaigns/<jobId>` one campaign. The key never appears in a URL. */
export type Route = { page: 'list' } | { page: 'campaign'; jobId: string };

/**
 * The route of a location hash; anything else, a job id whose percent-encoding is malformed (`%`,
 * `%E0%A4%A`) included, is the list.
 *
 * @example
 * routeOf('#/campaigns/pub_1'); // { page: 'campaign', jobId: 'pub_1' }
 * routeOf('#/campaigns/%'); // { page: 'list' }
 */
export function routeOf(hash: string): Route {
  const match = /^#\/campaigns\/([^/]+)$/.exec(hash);
  if (!match) return { page: 'list' };
  try {
    return { page: 'campaign', jobId: decodeURIComponent(match[1]!) };
  } catch {
    // decodeURIComponent throws URIError on a malformed escape: the address names no campaign.
    return { page: 'list' };
  }
}
