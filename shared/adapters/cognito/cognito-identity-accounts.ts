/**
 * IdentityAccounts over the stack's Cognito user pool (docs/PEOPLE.md "People"): an invitation is
 * AdminCreateUser with the email (marked verified, it is the sign-in name) and Cognito's own e-mail
 * carrying a temporary password; a removal signs the user out everywhere (AdminUserGlobalSignOut:
 * their refresh tokens stop working; their tokens already issued are refused by the membership check).
 */
import { AdminCreateUserCommand, AdminUserGlobalSignOutCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { IdentityProviderUnavailableError } from '../../people/errors';
import type { AccountInvitation, IdentityAccounts } from '../../people/ports';

/** Refusals that are answers, not outages. */
const nameOf = (error: unknown): string => (error instanceof Error ? error.name : '');

export class CognitoIdentityAccounts implements IdentityAccounts {
  constructor(
    private readonly client: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  async ensureAccount(email: string): Promise<AccountInvitation> {
    try {
      await this.client.send(
        new AdminCreateUserCommand({
          UserPoolId: this.userPoolId,
          Username: email,
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
          ],
          DesiredDeliveryMediums: ['EMAIL'],
        }),
      );
      return { delivery: 'email-sent-by-identity-provider' };
    } catch (error) {
      // The person already has an account (another organization invited them): it keeps its password.
      if (nameOf(error) === 'UsernameExistsException') return { delivery: 'managed-by-identity-provider' };
      throw unavailable(error);
    }
  }

  async endSessions(email: string): Promise<void> {
    try {
      await this.client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.userPoolId, Username: email }));
    } catch (error) {
      // No account (deleted at the pool, or never created): there is no session to end.
      if (nameOf(error) === 'UserNotFoundException') return;
      throw unavailable(error);
    }
  }
}

/** Any other failure: the pool did not do it; the client may retry (503). Only the error's name is kept, nothing of the request. */
const unavailable = (error: unknown): IdentityProviderUnavailableError => new IdentityProviderUnavailableError(`Cognito ${nameOf(error) || 'request'} failed`);
