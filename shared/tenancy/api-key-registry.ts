/**
 * Where broadcast API keys must also be known besides the credential store: in AWS, API Gateway
 * checks `x-api-key` against its usage plan before any Lambda runs, so every key issued at run time
 * is registered there too.
 */
export interface ApiKeyRegistry {
  /** Returns the gateway's id of the key, to remove it on revocation (undefined when nothing was registered). */
  registerBroadcastKey(key: { credentialId: string; organizationId: string; plaintextKey: string }): Promise<{ gatewayApiKeyId?: string }>;
  removeBroadcastKey(gatewayApiKeyId: string): Promise<void>;
}
