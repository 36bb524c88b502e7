import type { APIGatewayProxyResult } from 'aws-lambda';
import { describeError } from '../error-responses';
import { errorBody } from '../surface-responses';
import type { HttpResult } from '../http-operation';
import { logger } from '../../observability/logger';
import type { PipelineMiddleware } from './pipeline-request';

export const jsonResponse = (requestId: string, result: HttpResult): APIGatewayProxyResult =>
  result.textBody !== undefined
    ? {
        statusCode: result.statusCode,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Request-Id': requestId, ...result.headers },
        body: result.textBody,
      }
    : result.rawBody
      ? // Binary answers (routes with `binaryResponse`): base64, as Lambda proxy integrations return binary.
        {
          statusCode: result.statusCode,
          headers: { 'Content-Type': 'application/octet-stream', 'X-Request-Id': requestId, ...result.headers },
          body: result.rawBody.toString('base64'),
          isBase64Encoded: true,
        }
      : {
          statusCode: result.statusCode,
          headers: { 'Content-Type': 'application/json', 'X-Request-Id': requestId, ...result.headers },
          body: JSON.stringify(result.body),
        };

/**
 * Every failure becomes the surface's error answer through the one error table; the request log
 * line for successes is written here too, so both outcomes are logged in one place.
 */
export const errorResponses = (): PipelineMiddleware => ({
  after: (request) => {
    const startedAt = request.internal.startedAt;
    logger.info('request served', { statusCode: request.response?.statusCode, durationMs: startedAt ? Date.now() - startedAt : undefined });
  },
  onError: (request) => {
    const route = request.internal.route;
    const surface = route?.surface ?? 'broadcast';
    const description = describeError(request.error, surface, route);
    if (description.statusCode >= 500) logger.error('request failed', { error: request.error as Error });
    else logger.info('request rejected', { statusCode: description.statusCode, code: description.code });
    const facts = {
      requestId: request.internal.request?.requestId ?? request.event.requestContext?.requestId ?? request.context.awsRequestId,
      path: request.event.requestContext?.path ?? request.event.path,
      method: request.event.httpMethod,
      timestamp: new Date().toISOString(),
    };
    const retryAfter = description.retryAfterSeconds ?? description.retryAfterHeaderSeconds;
    request.response = jsonResponse(facts.requestId, {
      statusCode: description.statusCode,
      headers: retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) },
      body: errorBody(surface, description, facts),
    });
  },
});
