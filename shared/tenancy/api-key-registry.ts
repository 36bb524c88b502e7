/**
 * Where broadcast API keys must also be known besides the credential store: in AWS, API Gateway
 * checks `x-api-key` against its usage plan before any Lambda runs, so every key issued at run time
 * is registered there too.
 */
export interface ApiKeyRegistry {
  /**
   * Returns the gateway's id of the key, to remove it on revocation (undefined when nothing was
   * registered). `origin` is recorded with the gateway key (tag) so an operator can tell the keys
   * minted by the public generate-key operation apart in the gateway's own key list.
   */
  registerBroadcastKey(key: BroadcastKeyRegistration): Promise<{ gatewayApiKeyId?: string }>;
  /** Deletes the gateway key (revocation): the gateway stops accepting it and it stops using usage-plan quota. */
  removeBroadcastKey(gatewayApiKeyId: string): Promise<void>;
}

export interface BroadcastKeyRegistration {
  credentialId: string;
  organizationId: string;
  plaintextKey: string;
  /** `organization-admin`: issued through `POST /api-keys`. `person`: a person's usage-plan key (docs/PEOPLE.md "Metering"), a usage identifier that authenticates nothing. */
  origin: 'operator' | 'generate-key' | 'person' | 'organization-admin';
}
