/** `GET /me` (docs/PEOPLE.md "People"): who the caller is and the role the console shows controls by. */
import type { KeyScope } from '../tenancy/tenancy-entities';
import type { PersonIdentity } from './person';
import type { PersonRole } from './person-role';

export interface CallerView {
  organizationId: string;
  actor: 'person' | 'api-key';
  role: PersonRole;
  personId?: string;
  email?: string;
  credentialId?: string;
}

/**
 * The caller as `/me` shows them: a person with their role, or a key with the role it acts as (the
 * organization's key may do what an admin may; a key bound to a sender, what a campaign manager may).
 *
 * @example
 * callerView({ organizationId: 'org_1', credentialId: 'cred_1', scope: { kind: 'organization' } });
 * // { organizationId: 'org_1', actor: 'api-key', role: 'admin', credentialId: 'cred_1' }
 */
export function callerView(caller: { organizationId: string; credentialId: string; scope?: KeyScope; person?: PersonIdentity }): CallerView {
  if (caller.person) {
    const { personId, email, role } = caller.person;
    return { organizationId: caller.organizationId, actor: 'person', role, personId, email };
  }
  const role: PersonRole = caller.scope === undefined || caller.scope.kind === 'organization' ? 'admin' : 'campaign-manager';
  return { organizationId: caller.organizationId, actor: 'api-key', role, credentialId: caller.credentialId };
}
