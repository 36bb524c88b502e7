import { callerOf } from '../../shared/http/http-operation';
import { RequestValidationError } from '../../shared/http/errors';
import { listUpstreamPhoneNumbers } from '../../shared/upstream/list-phone-numbers';
import type { WrapperOperation } from './pass-through.handler';

/** GET /upstream/phone-numbers: `accounts` and `phone_numbers` (optional `fields` for the numbers). */
export const listPhoneNumbers: WrapperOperation = async (request, { upstream }) => {
  const unknown = Object.keys(request.query).filter((name) => name !== 'fields');
  if (unknown.length > 0) throw new RequestValidationError(`query parameter ${unknown[0]} is not supported on this route; supported: fields`);
  const result = await listUpstreamPhoneNumbers(upstream, { organizationId: callerOf(request).organizationId, fields: request.query.fields });
  return { statusCode: 200, body: result };
};
