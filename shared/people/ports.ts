/** The people module's ports: who a token says a person is, and the identity provider's accounts. */

/** What a verified OpenID Connect token says about its holder. */
export interface VerifiedIdentity {
  /** The `iss` claim: which configured issuer signed it. */
  issuer: string;
  /** The `sub` claim. */
  subject: string;
  /** Normalized (trimmed, lower case); from the token's `email` claim, or the issuer's userinfo for an access token without one. */
  email: string;
  /** When the token stops being valid (its `exp`). */
  expiresAt: Date;
}

/**
 * Verifies a person's ID or access token against the configured issuers' keys (JWKS): signature,
 * issuer, audience (or `client_id`), expiry. Throws InvalidPersonTokenError for any refusal, and
 * IdentityProviderUnavailableError when the issuer's keys cannot be read (a retry may mend it).
 */
export interface PersonTokenVerifier {
  verify(token: string): Promise<VerifiedIdentity>;
}

/** What inviting a person gave them to sign in with, when the identity provider hands it to us. */
export interface AccountInvitation {
  /**
   * A one-time password to give the person, only from an identity provider that sends no mail (the
   * local one). Cognito mails its own invitation; an external issuer manages its own accounts.
   */
  temporaryPassword?: string;
  /** How the person learns to sign in, in words for the inviter. */
  delivery: 'email-sent-by-identity-provider' | 'shown-once' | 'managed-by-identity-provider';
}

/**
 * The identity provider's accounts, as far as the platform manages them: the stack's Cognito user
 * pool, the local OIDC provider; an external issuer's accounts are its own (every method a no-op).
 */
export interface IdentityAccounts {
  /** Creates the account when there is none (an existing account keeps its password). */
  ensureAccount(email: string): Promise<AccountInvitation>;
  /** Ends every session of the account (its refresh tokens); its tokens already issued are refused by the membership check. */
  endSessions(email: string): Promise<void>;
}
