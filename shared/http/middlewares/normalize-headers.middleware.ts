import type { PipelineMiddleware } from './pipeline-request';

/** Header names lower-cased once, so every later step (and middy's JSON parser) reads one spelling. */
export const normalizeHeaders = (): PipelineMiddleware => ({
  before: (request) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.event.headers ?? {})) {
      if (value !== undefined) headers[name.toLowerCase()] = value;
    }
    request.event.headers = headers;
  },
});
