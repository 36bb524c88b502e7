import type { ApiKeyRegistry } from './api-key-registry';

/**
 * Used where no usage plan is configured. Locally, the gateway has no key list of its own: it
 * authenticates `x-api-key` against the credential store directly, so there is nothing to register.
 */
export const noOpApiKeyRegistry: ApiKeyRegistry = {
  registerBroadcastKey: async () => ({}),
  removeBroadcastKey: async () => {},
};
