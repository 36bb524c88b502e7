import { isCredentialAuth } from '../../../runtime-contract/route-keys';
import { logger } from '../../observability/logger';
import { takesJsonBody } from './body.middleware';
import { bearerToken, personSignInOf, requirePersonRole } from './person-sign-in';
import { stateOf, type PipelineMiddleware, type PipelineRequest } from './pipeline-request';

/**
 * Authentication waits on the credential store while parsing a large body keeps the CPU busy, so
 * it runs in two halves around the body steps: `startAuthentication` puts the credential read on
 * the wire, `requireCaller` awaits it. The answers keep the order of one step after the other:
 * when a body step fails, a failed authentication still wins (401 before 400).
 */
export const startAuthentication = (): PipelineMiddleware => ({
  before: async (request) => {
    const route = stateOf(request, 'route');
    // `meta-signature` routes verify their signature in the operation (it needs the raw body).
    if (!isCredentialAuth(route.auth)) return;
    const headers = request.event.headers as Record<string, string>;
    const secret = route.auth === 'broadcast-api-key' ? headers['x-api-key'] : bearerToken(headers.authorization);
    // A person's sign-in instead of the key on the routes people may call (docs/PEOPLE.md "Tokens").
    const person = personSignInOf(route, headers);
    const dependencies = stateOf(request, 'dependencies');
    const authentication = person ? dependencies.authenticate(route.auth, undefined, person) : dependencies.authenticate(route.auth, secret);
    authentication.catch(() => undefined);
    request.internal.authentication = authentication;
    // One turn of the event loop lets the SDK put the credential read on the wire before parsing starts.
    if (takesJsonBody(route)) await new Promise((resolve) => setImmediate(resolve));
  },
  onError: async (request) => {
    if (!request.internal.authentication || request.internal.request?.caller) return;
    try {
      await settle(request);
    } catch (authenticationError) {
      request.error = authenticationError as Error;
    }
  },
});

async function settle(request: PipelineRequest): Promise<void> {
  const caller = await request.internal.authentication!;
  stateOf(request, 'request').caller = caller;
  requirePersonRole(stateOf(request, 'route'), caller);
  logger.appendKeys({ organizationId: caller.organizationId });
}

/** The second half: from here on every authenticated route has its caller. */
export const requireCaller = (): PipelineMiddleware => ({
  before: async (request) => {
    if (request.internal.authentication) await settle(request);
  },
});
