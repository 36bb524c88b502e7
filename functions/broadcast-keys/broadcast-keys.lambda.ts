import { createGroupHandler } from '../../shared/http/create-group-handler';
import {
  BusinessAccountNeedsAuthorizationError,
  BusinessAccountNotFoundError,
  InvalidTenancyInputError,
  KeyGenerationNotEnabledError,
  PhoneNumberNotFoundError,
} from '../../shared/tenancy/errors';
import { getServices } from '../composition';
import { generateKey } from './generate-key.handler';

/** One answer for all of them (the contract's "not found or not connected"): no oracle for which applied. */
const notConnected = [
  PhoneNumberNotFoundError,
  KeyGenerationNotEnabledError,
  BusinessAccountNotFoundError,
  BusinessAccountNeedsAuthorizationError,
  InvalidTenancyInputError,
];

export const handler = createGroupHandler({
  group: 'broadcast-keys',
  operations: { generateKey },
  dependencies: () => {
    const services = getServices();
    return {
      ...services.http,
      keys: services.tenancy,
      keyErrors: { isNotConnected: (error: unknown) => notConnected.some((errorClass) => error instanceof errorClass) },
    };
  },
});
