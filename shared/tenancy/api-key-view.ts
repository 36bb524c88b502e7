/**
 * What the organization's own API keys read as (`GET/POST /api-keys`, docs/PEOPLE.md "API keys").
 * Types only, no imports: the console's model imports them too (its type check has no Node types).
 */

/** A key as the organization sees it: never its hash or secret. */
export interface ApiKeyView {
  credentialId: string;
  /** The one sender number the key may use; absent for a key of the whole organization. */
  boundPhoneNumber?: string;
  /** `operator` (the admin CLI), `organization-admin` (`POST /api-keys`) or `generate-key` (the earlier public operation). */
  origin: 'operator' | 'organization-admin' | 'generate-key';
  createdAt: string;
  revokedAt?: string;
  expiresAt?: string;
}

/** A new key: its secret is in this answer only. */
export interface CreatedApiKey {
  credentialId: string;
  apiKey: string;
  boundPhoneNumber?: string;
  createdAt: string;
}
