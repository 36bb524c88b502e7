import type { FollowLinkDependencies } from '../../shared/clicks/follow-tracked-link';
import { followTrackedLink } from '../../shared/clicks/follow-tracked-link';
import { LINK_NOT_FOUND_PAGE } from '../../shared/clicks/not-found-page';
import { httpOperation } from '../../shared/http/http-operation';

/** The redirect is never cached (every click counts) and the destination learns nothing of where the person came from. */
const REDIRECT_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/** GET and HEAD /r/{token}: 302 to the destination fixed at accept, or the plain not-found page. */
export const followLink = httpOperation('none', async (request, dependencies: FollowLinkDependencies) => {
  const answer = await followTrackedLink(dependencies, {
    token: request.pathParameters.token ?? '',
    method: request.method.toUpperCase() === 'HEAD' ? 'HEAD' : 'GET',
    userAgent: request.headers['user-agent'],
    clickId: request.query.click_id,
  });
  if (answer.kind === 'not-found') {
    return { statusCode: 404, headers: { ...REDIRECT_HEADERS, 'Content-Type': 'text/html; charset=utf-8' }, body: undefined, textBody: LINK_NOT_FOUND_PAGE };
  }
  return { statusCode: 302, headers: { ...REDIRECT_HEADERS, Location: answer.url }, body: undefined, textBody: '' };
});
