import type { PipelineMiddleware } from './pipeline-request';

/**
 * Headers every answer carries, success or error: JSON is never sniffed as HTML, answers (keys,
 * tokens, job data) are never cached, and clients keep to HTTPS. They change no status or body.
 */
const securityHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
};

const addHeaders: NonNullable<PipelineMiddleware['after']> = (request) => {
  if (!request.response) return;
  request.response.headers = { ...securityHeaders, ...request.response.headers };
};

export const addSecurityHeaders = (): PipelineMiddleware => ({ after: addHeaders, onError: addHeaders });
