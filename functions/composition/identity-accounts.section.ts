/**
 * The identity provider's accounts the people routes manage (docs/PEOPLE.md "People"), chosen by the
 * function's granted settings: the stack's Cognito pool (PEOPLE_USER_POOL_ID), the local OIDC
 * provider's admin endpoint (LOCAL_IDENTITY_ADMIN_URL + LOCAL_IDENTITY_ADMIN_SECRET), or none (the
 * configured issuers are external and manage their own accounts). Only for `managesPeople` functions.
 */
import { CognitoIdentityAccounts } from '../../shared/adapters/cognito/cognito-identity-accounts';
import { localIdentityAccounts } from '../../shared/adapters/oidc/local-identity-accounts';
import { ConfigurationError } from '../../shared/config/app-config';
import { externalIdentityAccounts } from '../../shared/people/external-identity-accounts';
import type { IdentityAccounts } from '../../shared/people/ports';
import { cognitoClient } from './cognito-client';
import { memoize, type CompositionContext } from './composition-context';

export function identityAccountsSection(context: CompositionContext): () => IdentityAccounts {
  const cognito = cognitoClient(context);
  return memoize(() => {
    const { userPoolId, localAdminUrl, localAdminSecret } = context.config.identityAccounts;
    if (userPoolId) return new CognitoIdentityAccounts(cognito(), userPoolId);
    if (localAdminUrl) {
      if (!localAdminSecret) throw new ConfigurationError('LOCAL_IDENTITY_ADMIN_SECRET is required with LOCAL_IDENTITY_ADMIN_URL');
      return localIdentityAccounts({ url: localAdminUrl, secret: localAdminSecret });
    }
    return externalIdentityAccounts;
  });
}
