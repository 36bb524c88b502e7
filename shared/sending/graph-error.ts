import type { GraphError } from './ports';

/** Meta's `{ error: {...} }` body as a GraphError; a synthetic one when the body has none. */
export function graphErrorFrom(body: unknown, httpStatus: number): GraphError {
  const error = (body as { error?: Partial<GraphError> } | undefined)?.error;
  const valid = typeof error === 'object' && error !== null;
  return {
    message: valid && typeof error.message === 'string' ? error.message : `Upstream answered HTTP ${httpStatus}`,
    type: valid && typeof error.type === 'string' ? error.type : 'UpstreamError',
    code: valid && typeof error.code === 'number' ? error.code : httpStatus,
    error_subcode: valid && typeof error.error_subcode === 'number' ? error.error_subcode : undefined,
    fbtrace_id: valid && typeof error.fbtrace_id === 'string' ? error.fbtrace_id : undefined,
    error_data: valid ? error.error_data : undefined,
  };
}

/** The five fields of the contract's `error` object. */
export function contractErrorOf(error: GraphError): { message: string; type: string; code: number; error_subcode?: number; fbtrace_id?: string } {
  return { message: error.message, type: error.type, code: error.code, error_subcode: error.error_subcode, fbtrace_id: error.fbtrace_id };
}

/** OAuthException 190: the access token is invalid or expired (subcodes 460, 463, 467, ...). */
export const isInvalidTokenError = (error: GraphError): boolean => error.code === 190;
