import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { RouteDefinition } from '../../../runtime-contract/route-manifest';
import { JsonNestingTooDeepError, MalformedJsonError, PayloadTooLargeError, UnsupportedContentTypeError } from '../errors';
import { jsonNestingExceeds, MAX_JSON_NESTING_DEPTH } from '../json-depth';
import { stateOf, type PipelineMiddleware } from './pipeline-request';

/** Lambda's synchronous payload limit is 6 MB; stop a little earlier with a clear 413. */
export const MAX_JSON_BODY_BYTES = 5 * 1024 * 1024;

/** POST, PUT and PATCH unless the route says otherwise; any other method only when it says `body: 'json'` (a DELETE of listed members). */
export const takesJsonBody = (route: RouteDefinition): boolean =>
  route.body === 'json' ||
  (route.body !== 'multipart' &&
    route.body !== 'none' &&
    route.body !== 'raw' &&
    (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH'));

/** Multipart and raw routes get the exact bytes (a raw route caps its own size); JSON routes are refused above the size cap before parsing. */
export const capBodySize = (): PipelineMiddleware => ({
  before: (request) => {
    const route = stateOf(request, 'route');
    const { body, isBase64Encoded } = request.event;
    if (route.body === 'multipart' || route.body === 'raw') {
      stateOf(request, 'request').rawBody = Buffer.from(body ?? '', isBase64Encoded ? 'base64' : 'utf8');
    } else if (takesJsonBody(route)) {
      if (Buffer.byteLength(body ?? '', isBase64Encoded ? 'base64' : 'utf8') > MAX_JSON_BODY_BYTES) throw new PayloadTooLargeError(MAX_JSON_BODY_BYTES);
    }
  },
});

/**
 * @middy/http-json-body-parser on JSON routes, its failures reworded as the contract's 400s, then
 * a nesting limit: deeply nested values would overflow the recursive validators that come next.
 */
export const parseJsonBody = (): PipelineMiddleware => {
  const parser = httpJsonBodyParser();
  return {
    before: async (request) => {
      const route = stateOf(request, 'route');
      if (!takesJsonBody(route)) return;
      const { body, isBase64Encoded } = request.event;
      try {
        await parser.before!(request as never);
      } catch {
        const contentType = request.event.headers['content-type'];
        throw /json/i.test(contentType ?? '') ? new MalformedJsonError() : new UnsupportedContentTypeError(contentType);
      }
      const text = typeof body === 'string' && isBase64Encoded ? Buffer.from(body, 'base64').toString() : body;
      if (typeof text === 'string' && jsonNestingExceeds(text)) throw new JsonNestingTooDeepError(MAX_JSON_NESTING_DEPTH);
      stateOf(request, 'request').body = request.event.body;
    },
  };
};
