/**
 * What every refusal must look like, per surface (the contract's error bodies), and what no
 * answer may ever contain. Shared by the fuzz, fault-injection and isolation suites.
 */
import { surfaces, type SurfaceName } from '../../../runtime-contract/route-manifest';
import type { TestResponse } from '../../support/local-runtime';

/** Stack frames, source files, runtime error names and the names of the stores behind the service. */
const INTERNAL = [
  /\bat [\w.<>]+ \(?[^)]*:\d+:\d+\)?/,
  /\.(ts|js):\d+/,
  /node_modules/,
  /\b(TypeError|ReferenceError|RangeError|SyntaxError|InternalError)\b/,
  /\b(ValidationException|ConditionalCheckFailed\w*|ResourceNotFoundException|ProvisionedThroughputExceeded\w*|ThrottlingException|TimeoutError)\b/,
  /\b(dynalite|fauxqs|DynamoDB|AWS\.SimpleQueueService|KMS)\b/i,
  /\bprocess\.env\b/,
];

export function expectNothingInternal(response: TestResponse): void {
  const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  for (const pattern of INTERNAL) {
    if (pattern.test(text)) throw new Error(`answer ${response.status} exposes ${pattern}: ${text.slice(0, 300)}`);
  }
}

export function expectSurfaceErrorShape(surface: SurfaceName, response: TestResponse): void {
  // The tracked links answer people's browsers: a link that leads nowhere is a plain HTML page (docs/OUTCOMES.md "Tracked links").
  if (surface === 'clicks' && response.status === 404) {
    // HEAD's answer has no body.
    const page = response.body ?? '';
    if (typeof page !== 'string' || !(page === '' || page.startsWith('<!doctype html>')))
      throw new Error(`not the clicks page: ${String(response.body).slice(0, 300)}`);
    return;
  }
  const body = response.body as Record<string, any>;
  const describe = () => `${surface} ${response.status}: ${JSON.stringify(body).slice(0, 300)}`;
  if (typeof body !== 'object' || body === null) throw new Error(`not a JSON error body: ${describe()}`);
  const ok = (() => {
    switch (surface) {
      case 'broadcast':
        return body.status === false && body.status_code === response.status && typeof body.message === 'string';
      case 'organization':
        return body.status === 'error' && body.statusCode === response.status && typeof body.message === 'string';
      case 'v1':
        return body.success === false && typeof body.error?.code === 'string' && typeof body.error?.message === 'string';
      case 'upstream':
        return (
          body.status === false &&
          typeof body.message === 'string' &&
          typeof body.error?.message === 'string' &&
          typeof body.error?.type === 'string' &&
          typeof body.error?.code === 'number'
        );
      case 'webhooks':
        // An HTTP API's own refusals (unknown route, throttled, too large) are its fixed `{ message }`.
        if ([404, 413, 429].includes(response.status) && typeof body.message === 'string' && Object.keys(body).length === 1) return true;
        return typeof body.error?.code === 'string' && typeof body.error?.message === 'string' && typeof body.error?.requestId === 'string';
      case 'docs':
      case 'clicks':
        return typeof body.error?.code === 'string' && typeof body.error?.message === 'string' && typeof body.error?.requestId === 'string';
    }
  })();
  if (!ok) throw new Error(`not the ${surface} error shape: ${describe()}`);
  // An HTTP API's route throttle cannot add Retry-After (docs/OPERATIONS.md "Front doors"); Meta retries with its own backoff.
  if (response.status === 429 && !response.headers.get('retry-after') && surfaces[surface].frontDoor !== 'http-api')
    throw new Error(`429 without Retry-After: ${describe()}`);
}
