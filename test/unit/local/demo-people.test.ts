import { demoPasswordHashes, ensureDemoAccounts } from '../../../local/demo-people';
import { demoPeople } from '../../../local/demo-tenant';
import { createAccountStore, passwordMatches } from '../../../local/identity-provider/account-store';

describe('the demo people', () => {
  it('are one per console role', () => {
    expect(demoPeople.map((person) => person.role).sort()).toEqual(['admin', 'campaign-manager', 'viewer']);
  });

  it('have precomputed hashes of exactly their passwords (change both together: local/demo-people.ts)', async () => {
    expect(Object.keys(demoPasswordHashes).sort()).toEqual(demoPeople.map((person) => person.email).sort());
    for (const person of demoPeople) expect(await passwordMatches(person.password, demoPasswordHashes[person.email]!)).toBe(true);
  });

  it('get accounts that sign in with their demo passwords, once', async () => {
    const accounts = createAccountStore();
    await ensureDemoAccounts(accounts);
    await ensureDemoAccounts(accounts);
    for (const person of demoPeople) expect(await accounts.verifyPassword(person.email, person.password)).toMatchObject({ email: person.email });
  });
});
