/**
 * The demo people on boot (docs/PEOPLE.md "Locally"): each of `demoPeople` (local/demo-tenant.ts)
 * a member of Demo Retail with their console role, and an account of the local identity provider
 * with their demo password; and what `.local/demo.json` says about signing in (`people`, `identity`).
 */
import type { Services } from '../functions/composition';
import { adminCommands } from '../shared/tenancy/admin-commands';
import { issueUsagePlanKey } from '../shared/people/manage-people';
import { personIdOf } from '../shared/people/person';
import type { PersonRole } from '../shared/people/person-role';
import type { AccountStore } from './identity-provider/account-store';
import { demoPeople } from './demo-tenant';

/** The demo's sign-in part of `demo.json`. */
export interface DemoSignIn {
  people: Array<{ email: string; password: string; role: PersonRole }>;
  /** The local identity provider: what the console signs in with (`GET /console/assets/sign-in.json` says the same). */
  identity: { issuer: string; clientId: string };
}

export interface DemoIdentity {
  issuer: string;
  clientId: string;
  accounts: AccountStore;
}

/**
 * Memberships (the organization API's employees: `admin` for the admin, `member` otherwise, with the
 * console role beside) and accounts. Re-runnable: a membership is rewritten, an existing account keeps its password.
 *
 * @example
 * await seedDemoPeople(services, demo.organizationId, identity.accounts);
 */
export async function seedDemoPeople(services: Services, organizationId: string, accounts: AccountStore): Promise<void> {
  for (const person of demoPeople) {
    const membership = await adminCommands['add-employee'].run(services.tenancy, {
      org: organizationId,
      email: person.email,
      role: person.role === 'admin' ? 'admin' : 'member',
    });
    // Their own usage-plan key, as an invitation gives one: the gateway's authorizer meters a person's requests by it.
    const usagePlanKey = membership.usagePlanKey ?? (await issueUsagePlanKey(services.people, organizationId, personIdOf(organizationId, membership.email)));
    await services.tenancy.repository.putMembership({ ...membership, consoleRole: person.role, usagePlanKey });
  }
  await ensureDemoAccounts(accounts);
}

/** Accounts only (a restart with persisted data: the memberships are the organization's own by now, changed or removed as its admins chose). */
export async function ensureDemoAccounts(accounts: AccountStore): Promise<void> {
  await Promise.all(
    demoPeople.map((person) => {
      const passwordHash = demoPasswordHashes[person.email];
      return accounts.ensureAccount(person.email, passwordHash ? { passwordHash } : { password: person.password });
    }),
  );
}

/**
 * The demo passwords' scrypt hashes, made once (test/unit/local/demo-people.test.ts checks each
 * against its password in demoPeople): every test runtime seeds the demo people, and hashing three
 * passwords at each boot cost about 150 ms of CPU, up to a second on a busy machine.
 */
export const demoPasswordHashes: Readonly<Record<string, string>> = {
  'admin@demo.example': 'scrypt$16384$8$1$j3_IhbZ7KjhhrdRIZ8PT1A$YtEiEvRYTbzYgtdhu2V3TOoD27gGWqLhuSJoG9I3IqA',
  'manager@demo.example': 'scrypt$16384$8$1$IeIfTKQYD5a_8yeDuKf4-w$pBfZNEIRkSs0APwcV7akps9-Kz8dqvOUSaaSpUaD_ok',
  'viewer@demo.example': 'scrypt$16384$8$1$hcu8ArfPaKlqpy_YJd-TRQ$iTkgxP4JnDI5SRvUafAmBA47hNVY9G7HJ4x0tq8JVmg',
};

/**
 * The `people` and `identity` of `demo.json`.
 *
 * @example
 * demoSignInOf(identity).people[0]; // { email: 'admin@demo.example', password: '…', role: 'admin' }
 */
export function demoSignInOf(identity: Pick<DemoIdentity, 'issuer' | 'clientId'>): DemoSignIn {
  return { people: demoPeople.map((person) => ({ ...person })), identity: { issuer: identity.issuer, clientId: identity.clientId } };
}
