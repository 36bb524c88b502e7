/** API Gateway API keys of issued broadcast keys. Only for functions that manage API keys. */
import { ApiGatewayKeyRegistry } from '../../shared/adapters/api-gateway/api-gateway-key-registry';
import type { ApiKeyRegistry } from '../../shared/tenancy/api-key-registry';
import { noOpApiKeyRegistry } from '../../shared/tenancy/no-op-api-key-registry';
import { apiGatewayClient } from './api-gateway-client';
import { memoize, type CompositionContext } from './composition-context';

export function apiKeyRegistrySection(context: CompositionContext): () => ApiKeyRegistry {
  const apiGateway = apiGatewayClient(context);
  return memoize(() => {
    if (context.overrides.apiKeyRegistry) return context.overrides.apiKeyRegistry;
    const usagePlanId = context.config.usagePlans.broadcastUsagePlanId;
    // Without a usage plan (locally) the gateway consults the credential store itself.
    return usagePlanId ? new ApiGatewayKeyRegistry(apiGateway(), usagePlanId) : noOpApiKeyRegistry;
  });
}
