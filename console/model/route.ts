/**
 * Hash routes: `#/` the broadcast list, `#/campaigns` the campaign list, `#/campaigns/<campaignId>`
 * one campaign (an id of the API's `cmp_` shape), `#/campaigns/<jobId>` one broadcast job (the
 * console's address for jobs before campaigns existed, kept so saved links still open), and the
 * admin screens `#/people`, `#/audit-log` and `#/api-keys`, and `#/settings` (the contact policy).
 * The key never appears in a URL.
 */
export type Route =
  | { page: 'list' }
  | { page: 'campaign'; jobId: string }
  | { page: 'campaign-list' }
  | { page: 'audience-campaign'; campaignId: string }
  | { page: 'people' }
  | { page: 'audit-log' }
  | { page: 'api-keys' }
  | { page: 'settings' }
  | BuilderRoute;

/** The admin screens' addresses (docs/CONSOLE.md "People", "Audit log" and "API keys"). */
const ADMIN_SCREENS: Record<string, Route> = { '#/people': { page: 'people' }, '#/audit-log': { page: 'audit-log' }, '#/api-keys': { page: 'api-keys' } };

/** The builder's pages (docs/CONSOLE.md "Audiences", "Templates", "New campaign"): `#/audiences`, `#/audiences/<audienceId>`, `#/templates`, `#/campaigns/new`. */
export type BuilderRoute = { page: 'audiences' } | { page: 'audience'; audienceId: string } | { page: 'templates' } | { page: 'campaign-new' };

const BUILDER_PAGES: Readonly<Record<string, BuilderRoute>> = {
  '#/audiences': { page: 'audiences' },
  '#/templates': { page: 'templates' },
  '#/campaigns/new': { page: 'campaign-new' },
};

/** A builder page's route, or undefined (a malformed audience id is the audience list). */
function builderRouteOf(hash: string): BuilderRoute | undefined {
  const fixed = BUILDER_PAGES[hash];
  if (fixed) return fixed;
  const match = /^#\/audiences\/([^/]+)$/.exec(hash);
  if (!match) return undefined;
  try {
    return { page: 'audience', audienceId: decodeURIComponent(match[1]!) };
  } catch {
    return { page: 'audiences' };
  }
}

/** Campaign ids are `cmp_…` (shared/campaigns/campaign.ts); job ids never are (`pub_…`, `leg_…`). */
const CAMPAIGN_ID = /^cmp_/;

/**
 * The route of a location hash; anything else, an id whose percent-encoding is malformed (`%`,
 * `%E0%A4%A`) included, is the broadcast list.
 *
 * @example
 * routeOf('#/campaigns/pub_1'); // { page: 'campaign', jobId: 'pub_1' }
 * routeOf('#/campaigns/cmp_1'); // { page: 'audience-campaign', campaignId: 'cmp_1' }
 * routeOf('#/campaigns'); // { page: 'campaign-list' }
 * routeOf('#/campaigns/%'); // { page: 'list' }
 * routeOf('#/people'); // { page: 'people' }
 * routeOf('#/settings'); // { page: 'settings' }
 * routeOf('#/campaigns/new'); // { page: 'campaign-new' }
 * routeOf('#/audiences/aud_1'); // { page: 'audience', audienceId: 'aud_1' }
 */
export function routeOf(hash: string): Route {
  const builder = builderRouteOf(hash);
  if (builder) return builder;
  if (hash === '#/campaigns') return { page: 'campaign-list' };
  const adminScreen = ADMIN_SCREENS[hash];
  if (adminScreen) return adminScreen;
  // Issue 39: the organization's settings (the contact policy), read by everyone, changed by admins.
  if (hash === '#/settings') return { page: 'settings' };
  const match = /^#\/campaigns\/([^/]+)$/.exec(hash);
  if (!match) return { page: 'list' };
  let id: string;
  try {
    id = decodeURIComponent(match[1]!);
  } catch {
    // decodeURIComponent throws URIError on a malformed escape: the address names no campaign.
    return { page: 'list' };
  }
  return CAMPAIGN_ID.test(id) ? { page: 'audience-campaign', campaignId: id } : { page: 'campaign', jobId: id };
}

/**
 * The address of one campaign's or one job's page.
 *
 * @example
 * campaignHref('cmp_1'); // '#/campaigns/cmp_1'
 */
export const campaignHref = (id: string): string => `#/campaigns/${encodeURIComponent(id)}`;

/**
 * The address of one audience's page.
 *
 * @example
 * audienceHref('aud_1'); // '#/audiences/aud_1'
 */
export const audienceHref = (id: string): string => `#/audiences/${encodeURIComponent(id)}`;
