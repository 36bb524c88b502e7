import { RequestValidationError } from '../../shared/http/errors';
import { listUpstreamPhoneNumbers } from '../../shared/upstream/list-phone-numbers';
import { wrapperOperation } from './pass-through.handler';

/** GET /upstream/phone-numbers: `accounts` and `phone_numbers` (optional `fields` for the numbers). */
export const listPhoneNumbers = wrapperOperation(async (request, { upstream }) => {
  const unknown = Object.keys(request.query).filter((name) => name !== 'fields');
  if (unknown.length > 0) throw new RequestValidationError(`query parameter ${unknown[0]} is not supported on this route; supported: fields`);
  const result = await listUpstreamPhoneNumbers(upstream, { organizationId: request.caller.organizationId, fields: request.query.fields });
  return { statusCode: 200, body: result };
});
