/**
 * Every tenancy store in memory, with the same observable semantics as the DynamoDB adapters
 * (conditional writes, claims, no-overdraft debits), for unit tests of anything that uses tenancy:
 * the per-store fakes (tenancy-stores/) over one shared state, combined as the compositions combine
 * the adapters, plus the state tests inspect (`credentials`, `everythingWritten`, `calls`, …).
 */
import { combinePorts } from '../../shared/ports/combine-ports';
import type { AccountDirectory, BillingStore, CredentialStore, MembershipStore, OrganizationStore, TenancyStores } from '../../shared/tenancy/tenancy-stores';
import { InMemoryAccountDirectory } from './tenancy-stores/in-memory-account-directory';
import { InMemoryBillingStore } from './tenancy-stores/in-memory-billing-store';
import { InMemoryCredentialStore } from './tenancy-stores/in-memory-credential-store';
import { InMemoryMembershipStore } from './tenancy-stores/in-memory-membership-store';
import { InMemoryOrganizationStore } from './tenancy-stores/in-memory-organization-store';
import { InMemoryTenancyState } from './tenancy-stores/in-memory-tenancy-state';

// The store methods are the per-store fakes', set on the instance by the constructor (declaration
// merging gives the class their types; `stores` below is checked against all of them).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the merge is the point: see the comment above
export interface InMemoryTenancyRepository extends OrganizationStore, AccountDirectory, CredentialStore, MembershipStore, BillingStore {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class InMemoryTenancyRepository extends InMemoryTenancyState {
  constructor() {
    super();
    const organizations: OrganizationStore = new InMemoryOrganizationStore(this);
    const accounts: AccountDirectory = new InMemoryAccountDirectory(this);
    const credentials: CredentialStore = new InMemoryCredentialStore(this);
    const memberships: MembershipStore = new InMemoryMembershipStore(this);
    const billing: BillingStore = new InMemoryBillingStore(this);
    const stores: TenancyStores = combinePorts(organizations, accounts, credentials, memberships, billing);
    Object.assign(this, stores);
  }
}
