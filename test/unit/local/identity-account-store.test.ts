import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountStore, hashPassword, passwordMatches } from '../../../local/identity-provider/account-store';
import { InvalidAccountInputError } from '../../../local/identity-provider/errors';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'identity-accounts-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('password hashes', () => {
  it('are salted scrypt hashes that match only their own password', async () => {
    const [first, second] = [await hashPassword('correct horse'), await hashPassword('correct horse')];
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(first).not.toBe(second);
    expect(await passwordMatches('correct horse', first)).toBe(true);
    expect(await passwordMatches('correct horsE', first)).toBe(false);
    expect(await passwordMatches('', first)).toBe(false);
    expect(await passwordMatches('correct horse', 'plain-text')).toBe(false);
  });
});

describe('the account store', () => {
  it('creates an account with a temporary password once; the existing account keeps its password', async () => {
    const accounts = createAccountStore();
    const created = await accounts.ensureAccount('  Ana@Example.com ');
    expect(created).toMatchObject({ created: true, account: { email: 'ana@example.com', accountId: expect.stringMatching(/^acct_[0-9a-f]{20}$/) } });
    expect(created.temporaryPassword).toMatch(/^[\w-]{16}$/);
    expect(created.account.passwordHash).not.toContain(created.temporaryPassword);

    const again = await accounts.ensureAccount('ana@example.com', { password: 'another-password' });
    expect(again).toEqual({ account: created.account, created: false });
    expect(await accounts.verifyPassword('ANA@example.com', created.temporaryPassword!)).toEqual(created.account);
    expect(await accounts.verifyPassword('ana@example.com', 'another-password')).toBeUndefined();
  });

  it('takes a given password (the demo people) without a temporary one', async () => {
    const accounts = createAccountStore();
    const created = await accounts.ensureAccount('viewer@demo.example', { password: 'demo-viewer-password' });
    expect(created.temporaryPassword).toBeUndefined();
    expect(await accounts.verifyPassword('viewer@demo.example', 'demo-viewer-password')).toEqual(created.account);
  });

  it('takes a ready hash, and refuses one that is not a scrypt hash', async () => {
    const accounts = createAccountStore();
    await accounts.ensureAccount('ana@example.com', { passwordHash: await hashPassword('ready-password') });
    expect(await accounts.verifyPassword('ana@example.com', 'ready-password')).toMatchObject({ email: 'ana@example.com' });
    await expect(accounts.ensureAccount('bob@example.com', { passwordHash: 'plain' })).rejects.toThrow(InvalidAccountInputError);
  });

  it('refuses a wrong password, an unknown email and an overlong password alike', async () => {
    const accounts = createAccountStore();
    await accounts.ensureAccount('ana@example.com', { password: 'right-password' });
    expect(await accounts.verifyPassword('ana@example.com', 'wrong-password')).toBeUndefined();
    expect(await accounts.verifyPassword('nobody@example.com', 'right-password')).toBeUndefined();
    expect(await accounts.verifyPassword('ana@example.com', 'x'.repeat(5_000))).toBeUndefined();
  });

  it('refuses an address that is not one, and a short password', async () => {
    const accounts = createAccountStore();
    await expect(accounts.ensureAccount('not an email')).rejects.toThrow(InvalidAccountInputError);
    await expect(accounts.ensureAccount('ana@example.com', { password: 'short' })).rejects.toThrow('password must be 8 to 1024 characters');
    expect(accounts.findByEmail('ana@example.com')).toBeUndefined();
  });

  it('finds accounts by id and by email', async () => {
    const accounts = createAccountStore();
    const { account } = await accounts.ensureAccount('ana@example.com');
    expect(accounts.findById(account.accountId)).toEqual(account);
    expect(accounts.findByEmail(' ANA@example.com')).toEqual(account);
    expect(accounts.findById('acct_unknown')).toBeUndefined();
  });

  it('creates one account when two calls race for the same email', async () => {
    const accounts = createAccountStore();
    const [first, second] = await Promise.all([accounts.ensureAccount('ana@example.com'), accounts.ensureAccount('ana@example.com')]);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(first.account).toEqual(second.account);
  });

  it('with a file, keeps hashes only (owner-only) and reads them back on the next start', async () => {
    const file = join(directory, 'identity-accounts.json');
    const { account, temporaryPassword } = await createAccountStore({ file }).ensureAccount('ana@example.com');
    expect(readFileSync(file, 'utf8')).not.toContain(temporaryPassword);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const restarted = createAccountStore({ file });
    expect(await restarted.verifyPassword('ana@example.com', temporaryPassword!)).toEqual(account);
  });
});
