/** A PersonTokenVerifier over a table of tokens: `token -> email`, anything else refused as jose's verifier refuses it. */
import { IdentityProviderUnavailableError, InvalidPersonTokenError } from '../../../shared/people/errors';
import type { PersonTokenVerifier, VerifiedIdentity } from '../../../shared/people/ports';

export class FakePersonTokenVerifier implements PersonTokenVerifier {
  private readonly tokens = new Map<string, string>();
  /** Set to make every verification fail as an unreachable issuer does. */
  unavailable = false;

  /** Mints a token for the email (normalized as the real verifier normalizes it). */
  issue(email: string, token = `token-${this.tokens.size + 1}`): string {
    this.tokens.set(token, email.trim().toLowerCase());
    return token;
  }

  async verify(token: string): Promise<VerifiedIdentity> {
    if (this.unavailable) throw new IdentityProviderUnavailableError('JWKS unreachable');
    const email = this.tokens.get(token);
    if (!email) throw new InvalidPersonTokenError();
    return { issuer: 'https://issuer.test', subject: `sub-${email}`, email, expiresAt: new Date(Date.now() + 3_600_000) };
  }
}
