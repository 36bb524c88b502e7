/**
 * IdentityAccounts for external issuers only (Entra ID, Okta, Google Workspace; docs/PEOPLE.md
 * "People"): their accounts are their own, so inviting creates none and removal ends no session
 * there; the membership check refuses a removed person's next request all the same.
 */
import type { IdentityAccounts } from './ports';

export const externalIdentityAccounts: IdentityAccounts = {
  ensureAccount: async () => ({ delivery: 'managed-by-identity-provider' }),
  endSessions: async () => undefined,
};
