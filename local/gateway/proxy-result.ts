/**
 * A Lambda proxy result as API Gateway takes it: checked (a malformed result is a 502), its
 * `headers` and `multiValueHeaders` merged, the gateway's own headers remapped, and written out.
 */
import type http from 'node:http';

/** Integration response headers API Gateway renames to `x-amzn-Remapped-<name>` (the gateway owns them). */
const remappedResponseHeaders = new Set(['connection', 'content-length', 'date', 'server', 'x-amzn-requestid']);

type HeaderScalar = string | number | boolean;
const isHeaderScalar = (value: unknown): value is HeaderScalar => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

export interface ValidResult {
  statusCode: number;
  headers: Array<[string, string[]]>;
  body: Buffer;
}

/**
 * Validates a Lambda proxy result as API Gateway does; undefined when malformed (→ 502).
 *
 * @example
 * validateProxyResult({ statusCode: 200, body: '{}' }); // { statusCode: 200, headers: [], body: <Buffer 7b 7d> }
 * validateProxyResult({ statusCode: '200' }); // undefined
 */
export const validateProxyResult = (result: unknown): ValidResult | undefined => {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  const r = result as Record<string, unknown>;
  const statusCode = r.statusCode;
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) return undefined;
  if (r.body !== undefined && r.body !== null && typeof r.body !== 'string') return undefined;
  if (r.isBase64Encoded !== undefined && r.isBase64Encoded !== null && typeof r.isBase64Encoded !== 'boolean') return undefined;
  const headers = mergedHeaders(r.headers, r.multiValueHeaders);
  if (!headers) return undefined;
  const bodyText = typeof r.body === 'string' ? r.body : '';
  const body = r.isBase64Encoded === true ? Buffer.from(bodyText, 'base64') : Buffer.from(bodyText, 'utf8');
  return { statusCode, headers, body };
};

/** `headers` and `multiValueHeaders` merged; for a name in both, the multi-value list wins. Undefined when either is malformed. */
function mergedHeaders(single: unknown, multi: unknown): Array<[string, string[]]> | undefined {
  const merged = new Map<string, [string, string[]]>();
  if (single !== undefined && single !== null) {
    if (typeof single !== 'object' || Array.isArray(single)) return undefined;
    for (const [name, value] of Object.entries(single as Record<string, unknown>)) {
      if (value === null || value === undefined) continue;
      if (!isHeaderScalar(value)) return undefined;
      merged.set(name.toLowerCase(), [name, [String(value)]]);
    }
  }
  if (multi !== undefined && multi !== null) {
    if (typeof multi !== 'object' || Array.isArray(multi)) return undefined;
    for (const [name, values] of Object.entries(multi as Record<string, unknown>)) {
      if (values === null || values === undefined) continue;
      if (!Array.isArray(values) || !values.every(isHeaderScalar)) return undefined;
      merged.set(name.toLowerCase(), [name, values.map(String)]);
    }
  }
  return [...merged.values()];
}

/** Writes a valid result with the headers API Gateway adds (request id, API Gateway id, trace id). */
export const writeProxyResponse = (
  res: http.ServerResponse,
  result: ValidResult,
  ids: { requestId: string; extendedRequestId: string; traceId: string },
): void => {
  const out: Record<string, string | string[]> = {};
  let hasContentType = false;
  for (const [name, values] of result.headers) {
    const lower = name.toLowerCase();
    if (remappedResponseHeaders.has(lower)) {
      out[`x-amzn-Remapped-${name}`] = values;
      continue;
    }
    if (lower === 'content-type') hasContentType = true;
    out[name] = values.length === 1 ? (values[0] as string) : values;
  }
  if (!hasContentType) out['Content-Type'] = 'application/json';
  out['x-amzn-RequestId'] = ids.requestId;
  out['x-amz-apigw-id'] = ids.extendedRequestId;
  out['X-Amzn-Trace-Id'] = ids.traceId;
  out['Content-Length'] = String(result.body.length);
  res.writeHead(result.statusCode, out);
  res.end(result.body);
};
