import { CreateApiKeyCommand, CreateUsagePlanKeyCommand, DeleteApiKeyCommand, type APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { ApiKeyRegistry, BroadcastKeyRegistration } from '../../tenancy/api-key-registry';

/**
 * Registers broadcast keys issued at run time with API Gateway, so the usage plan of the broadcast
 * API accepts and throttles them. API Gateway needs the key's value to match `x-api-key`; it is the
 * one place besides the caller that holds it (AWS-managed); our table keeps only the hash.
 *
 * Account quota: API Gateway allows a limited number of API keys per region (10,000 by default).
 */
export class ApiGatewayKeyRegistry implements ApiKeyRegistry {
  constructor(
    private readonly client: APIGatewayClient,
    private readonly usagePlanId: string,
  ) {}

  async registerBroadcastKey(key: BroadcastKeyRegistration): Promise<{ gatewayApiKeyId?: string }> {
    const created = await this.client.send(
      new CreateApiKeyCommand({
        // Named after the credential so an operator can match gateway keys to credentials.
        name: key.credentialId,
        description: `Broadcast API key of ${key.organizationId}${key.origin === 'generate-key' ? ' (minted by generate-key)' : ''}`,
        value: key.plaintextKey,
        enabled: true,
        tags: { organizationId: key.organizationId, credentialId: key.credentialId, origin: key.origin },
      }),
    );
    if (!created.id) throw new Error('API Gateway returned no id for the new API key');
    try {
      await this.client.send(new CreateUsagePlanKeyCommand({ usagePlanId: this.usagePlanId, keyId: created.id, keyType: 'API_KEY' }));
    } catch (error) {
      // A key outside every usage plan is useless; do not leave it behind.
      await this.removeBroadcastKey(created.id).catch(() => undefined);
      throw error;
    }
    return { gatewayApiKeyId: created.id };
  }

  async removeBroadcastKey(gatewayApiKeyId: string): Promise<void> {
    try {
      await this.client.send(new DeleteApiKeyCommand({ apiKey: gatewayApiKeyId }));
    } catch (error) {
      if (error instanceof Error && error.name === 'NotFoundException') return;
      throw error;
    }
  }
}
