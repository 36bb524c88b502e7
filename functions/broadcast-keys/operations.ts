/** The group's operations by manifest name (apart from the Lambda entry, so tests can run them on fakes). */
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.handler';
import { generateKey } from './generate-key.handler';

export const broadcastKeysOperations = { generateKey, listApiKeys, createApiKey, revokeApiKey };
