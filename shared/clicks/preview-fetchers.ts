/**
 * Link-preview fetchers and crawlers: they fetch a link to show a card or index it, not because a
 * person tapped it. WhatsApp itself fetches a URL to draw its preview, and a shared link is fetched
 * by the app it lands in. The redirect answers them as anyone (302) but counts nothing
 * (docs/OUTCOMES.md "Tracked links"). Matched without case, anywhere in the User-Agent.
 */
export const PREVIEW_FETCHER_AGENTS = [
  'WhatsApp',
  'facebookexternalhit',
  'Facebot',
  'meta-externalagent',
  'Twitterbot',
  'Slackbot',
  'TelegramBot',
  'Discordbot',
  'LinkedInBot',
  'Googlebot',
  'bingbot',
  'Applebot',
  'SkypeUriPreview',
  'redditbot',
  'Pinterestbot',
  'vkShare',
  'Embedly',
  'Iframely',
  'YandexBot',
  'DuckDuckBot',
] as const;

const PATTERN = new RegExp(PREVIEW_FETCHER_AGENTS.map((agent) => agent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');

/**
 * Whether a request comes from a link-preview fetcher or crawler (no User-Agent at all counts as one:
 * a person's browser always sends it).
 *
 * @example
 * isPreviewFetcher('WhatsApp/2.23.20.0 A'); // true
 * isPreviewFetcher('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) … Mobile/15E148 Safari/604.1'); // false
 */
export function isPreviewFetcher(userAgent: string | undefined): boolean {
  if (userAgent === undefined || userAgent.trim() === '') return true;
  return PATTERN.test(userAgent);
}
