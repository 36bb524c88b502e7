/**
 * Each API surface has its own body shape, fixed by the contract. Operations build success
 * bodies with these helpers; the error middleware builds failures with `errorBody`.
 */
import type { SurfaceName } from '../../runtime-contract/http-types';

/** Broadcast envelope: `status`, `status_code`, `message`, `data`. */
export const broadcastEnvelope = (statusCode: number, message: string, data: unknown = {}) => ({
  status: statusCode < 400,
  status_code: statusCode,
  message,
  data,
});

/** Generic v1 API success body: `success`, `data`, `meta` {page, total} (plus `pageSize` on lists). */
export const v1Envelope = (data: unknown, meta: { page: number; total: number; pageSize?: number } = { page: 1, total: 1 }) => ({
  success: true as const,
  data,
  meta,
});

export interface ErrorDescription {
  statusCode: number;
  /** Stable machine-readable code, e.g. VALIDATION_FAILED. */
  code: string;
  /** Safe for the client: the domain message for 4xx, a generic text for 5xx. */
  message: string;
  retryAfterSeconds?: number;
  /** `Retry-After` header only (store faults): the body stays the surface's plain 5xx. */
  retryAfterHeaderSeconds?: number;
  /** Plain data the broadcast body's error object carries besides code and message (e.g. `earlierJob`). */
  details?: Record<string, unknown>;
  /** Upstream (Graph API) error details the wrapper passes through. */
  upstream?: { message: string; type: string; code: number; error_subcode?: number; fbtrace_id?: string };
}

export interface RequestFacts {
  requestId: string;
  path: string;
  method: string;
  timestamp: string;
}

export function errorBody(surface: SurfaceName, error: ErrorDescription, request: RequestFacts): Record<string, unknown> {
  const retry = error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds };
  switch (surface) {
    case 'broadcast':
      // The earlier key-generation failure body of the contract, used for every broadcast error so
      // clients parse one shape; it is a superset of the broadcast envelope.
      return {
        statusCode: error.statusCode,
        timestamp: request.timestamp,
        path: request.path,
        method: request.method,
        requestId: request.requestId,
        message: error.message,
        status: false,
        status_code: error.statusCode,
        ...retry,
        data: { error: { code: error.code, message: error.message, ...retry, ...error.details } },
      };
    case 'organization':
      return {
        statusCode: error.statusCode,
        status: 'error',
        message: error.message,
        ...retry,
        data: error.statusCode >= 500 ? [] : { error: { message: error.message } },
      };
    case 'v1':
      return { success: false, error: { code: error.code, message: error.message }, ...retry };
    case 'upstream': {
      const upstream = error.upstream
        ? // Meta's error as sent; the contract's fields are always present (Meta omits them at times).
          {
            ...error.upstream,
            error_subcode: error.upstream.error_subcode ?? 0,
            fbtrace_id: error.upstream.fbtrace_id ?? request.requestId,
          }
        : {
            message: error.message,
            type: error.code,
            code: error.statusCode,
            error_subcode: 0,
            fbtrace_id: request.requestId,
          };
      return { status: false, message: error.message, ...retry, error: upstream };
    }
    case 'webhooks':
    case 'docs':
    case 'clicks':
      // The gateway's refusals of this surface have the same shape (route-manifest.ts `webhooksGatewayError`).
      return { error: { code: error.code, message: error.message, requestId: request.requestId } };
  }
}
