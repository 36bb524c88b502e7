/** The answers of the tracked links' redirect (docs/OUTCOMES.md "Tracked links"): a 302, or the plain page of a link that leads nowhere. */
import { str } from './schema-builders';

export const clickSuccesses = {
  'clicks:followLink': [
    {
      status: '302',
      description: 'To the destination fixed when the message was accepted (a person\u2019s GET is counted; HEAD and link-preview fetchers are not)',
      headers: {
        Location: { description: 'The https destination', schema: str },
        'Cache-Control': { description: '`no-store`', schema: str },
        'Referrer-Policy': { description: '`no-referrer`', schema: str },
      },
    },
    { status: '404', description: 'An unknown, altered or expired token: a plain HTML page, never a redirect', content: { 'text/html': { schema: str } } },
  ],
};
