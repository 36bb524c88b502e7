import * as v from 'valibot';
import { parseRequest } from '../../../shared/http/validation';
import { RequestValidationError } from '../../../shared/http/errors';

const schema = v.object({
  fromPhoneNumber: v.pipe(v.string(), v.regex(/^\d+$/, 'must contain digits only')),
  data: v.array(v.object({ toPhoneNumber: v.pipe(v.string(), v.regex(/^\d+$/, 'must contain digits only')) })),
});

const failure = (input: unknown): RequestValidationError => {
  try {
    parseRequest(schema, input);
  } catch (error) {
    return error as RequestValidationError;
  }
  throw new Error('expected a validation failure');
};

describe('request validation messages', () => {
  it('names a nested field by its path and the rule it broke', () => {
    const error = failure({ fromPhoneNumber: '1555', data: [{ toPhoneNumber: '1' }, { toPhoneNumber: '12a' }] });
    expect(error.message).toBe('data[1].toPhoneNumber must contain digits only');
  });

  it('says a missing field is required and names the type of a wrong one', () => {
    expect(failure({ data: [] }).message).toBe('fromPhoneNumber is required');
    expect(failure({ fromPhoneNumber: 15550001, data: [] }).message).toBe('fromPhoneNumber must be string (received 15550001)');
  });

  it('names the body itself when it is not an object', () => {
    expect(failure(null).message).toBe('body must be object (received null)');
  });

  it('returns the typed output on success', () => {
    expect(parseRequest(schema, { fromPhoneNumber: '1', data: [] })).toEqual({ fromPhoneNumber: '1', data: [] });
  });
});
