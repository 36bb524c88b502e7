/** The group's operations by manifest name (apart from the Lambda entry, so tests can run them on fakes). */
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.handler';
import { generateKey } from './generate-key.handler';
import { getContactPolicyOperation, removeContactPolicyOperation, setContactPolicyOperation } from './contact-policy.handler';

export const broadcastKeysOperations = {
  generateKey,
  listApiKeys,
  createApiKey,
  revokeApiKey,
  getContactPolicy: getContactPolicyOperation,
  setContactPolicy: setContactPolicyOperation,
  removeContactPolicy: removeContactPolicyOperation,
};
