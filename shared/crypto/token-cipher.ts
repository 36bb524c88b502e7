/**
 * Encrypts secrets at rest: the Meta access tokens of business accounts, the platform's Meta app
 * secret and verify token, and customer webhook signing secrets. Every ciphertext is bound to an
 * encryption context that names its purpose and its owner: decrypting with another context fails,
 * so a ciphertext copied into another record is useless there. On AWS each function's KMS grant is
 * conditioned on the purposes it may use (`kms:EncryptionContext:purpose`, granted from
 * `tokenPurposes` in runtime-contract/resource-definitions.ts), so the internet-facing webhook
 * function cannot decrypt a tenant's Meta token even with the key's id and a stolen ciphertext.
 *
 * Implementations: KMS on AWS, AES-256-GCM with a configured key locally.
 */

/**
 * Why a secret is encrypted: `upstream-token` (a business account's Meta access token, context
 * `{organizationId, wabaId}`), `meta-app` (the platform's app secret and verify token, `{field}`),
 * `webhook-secret` (a customer webhook endpoint's signing secret, `{organizationId, webhookEndpointId}`),
 * `click-link` (the platform's key of tracked-link tokens, `{key: 'platform'}`: shared/clicks/click-link-key.ts).
 */
export const tokenPurposes = ['upstream-token', 'meta-app', 'webhook-secret', 'click-link'] as const;
export type TokenPurpose = (typeof tokenPurposes)[number];

/** A context always names its purpose; the other fields bind the secret to its owner. */
export type EncryptionContext = Readonly<{ purpose: TokenPurpose } & Record<string, string>>;

export interface TokenCipher {
  /** Returns an opaque, self-describing string (`<scheme>:<payload>`) safe to store. */
  encrypt(plaintext: string, context: EncryptionContext): Promise<string>;
  /** Throws TokenDecryptionError when the ciphertext, key or context do not match. */
  decrypt(ciphertext: string, context: EncryptionContext): Promise<string>;
}

/**
 * One canonical byte form of a context, independent of property order (used as AES additional data).
 *
 * @example
 * canonicalContext({ purpose: 'meta-app', field: 'app-secret' }); // '[["field","app-secret"],["purpose","meta-app"]]'
 */
export function canonicalContext(context: Readonly<Record<string, string>>): string {
  return JSON.stringify(
    Object.keys(context)
      .sort()
      .map((key) => [key, context[key]]),
  );
}

/**
 * The contexts written before contexts named their purpose: upstream tokens were bound to
 * `{organizationId, wabaId}`, webhook secrets to `{organizationId, webhookEndpointId}` (Meta app
 * settings already named theirs, so they have none). Such ciphertexts stay readable: decryption
 * falls back to a purpose's legacy form (`withLegacyContextFallback`), and each function's KMS grant
 * allows the legacy form of its own purposes only, recognised by exactly these keys.
 */
export const legacyContextKeys: Readonly<Partial<Record<TokenPurpose, readonly string[]>>> = {
  'upstream-token': ['organizationId', 'wabaId'],
  'webhook-secret': ['organizationId', 'webhookEndpointId'],
};

/**
 * The legacy form of a context (its fields without `purpose`), when its purpose had one and the
 * fields are exactly the legacy ones; undefined otherwise.
 *
 * @example
 * legacyContextOf({ purpose: 'upstream-token', organizationId: 'org_1', wabaId: '1001' }); // { organizationId: 'org_1', wabaId: '1001' }
 * legacyContextOf({ purpose: 'meta-app', field: 'app-secret' }); // undefined
 */
export function legacyContextOf(context: EncryptionContext): Readonly<Record<string, string>> | undefined {
  const keys = legacyContextKeys[context.purpose];
  const { purpose: _purpose, ...fields } = context;
  if (!keys || Object.keys(fields).sort().join() !== [...keys].sort().join()) return undefined;
  return fields;
}
