/**
 * The local identity provider's accounts (docs/PEOPLE.md "Locally"): email and a scrypt hash of the
 * password, in memory, and written to a file of the runtime's data directory when it persists its
 * data (`npm start`), so an invited person keeps their password across restarts. Passwords are
 * compared in constant time, and an unknown email costs the same hash as a known one, so neither
 * the answer nor its timing says which part of a sign-in was wrong.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isPlausibleEmail, normalizeEmail } from '../../shared/tenancy/tenancy-entities';
import { InvalidAccountInputError } from './errors';

export interface IdentityAccount {
  /** The `sub` of the account's tokens: random, stable for the account's life. */
  accountId: string;
  /** Normalized (trimmed, lower case). */
  email: string;
  /** `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`. */
  passwordHash: string;
}

export interface EnsuredAccount {
  account: IdentityAccount;
  created: boolean;
  /** The password the account was created with, when it was created without one given (a temporary password). */
  temporaryPassword?: string;
}

export interface AccountStore {
  /**
   * Creates the account when there is none; an existing account keeps its password. Without a
   * password (or a hash of one: the demo people's, made once) it gets a temporary password.
   */
  ensureAccount(email: string, options?: { password?: string; passwordHash?: string }): Promise<EnsuredAccount>;
  /** The account when the email and password match one, else undefined (same cost either way). */
  verifyPassword(email: string, password: string): Promise<IdentityAccount | undefined>;
  findById(accountId: string): IdentityAccount | undefined;
  findByEmail(email: string): IdentityAccount | undefined;
}

// N=2^14, r=8, p=1 (16 MiB, scrypt's interactive-login parameters) rather than OWASP's 2^17: every
// test runtime hashes the demo people's passwords at boot, about 50 ms each on an idle core (200 ms
// on a busy shared machine). Local accounts only; the parameters are stored with each hash.
const SCRYPT = { N: 2 ** 14, r: 8, p: 1, keyLength: 32 } as const;
const MAX_PASSWORD_LENGTH = 1_024;

/**
 * The store; `file` (absent: memory only) is read at start and rewritten on every new account.
 *
 * @example
 * const accounts = createAccountStore({ file: '.local/identity-accounts.json' });
 * const { temporaryPassword } = await accounts.ensureAccount('ana@example.com');
 * await accounts.verifyPassword('ana@example.com', temporaryPassword!); // the account
 */
export function createAccountStore(options: { file?: string } = {}): AccountStore {
  const byEmail = new Map<string, IdentityAccount>();
  for (const account of readAccounts(options.file)) byEmail.set(account.email, account);
  const byId = () => new Map([...byEmail.values()].map((account) => [account.accountId, account]));
  // A hash to compare against when the email is unknown, so that path costs the same.
  const decoy = hashPassword(randomBytes(16).toString('hex'));

  return {
    async ensureAccount(email, ensureOptions = {}) {
      const normalized = validEmail(email);
      const existing = byEmail.get(normalized);
      if (existing) return { account: existing, created: false };
      const temporaryPassword = ensureOptions.password === undefined && ensureOptions.passwordHash === undefined ? generateTemporaryPassword() : undefined;
      const passwordHash = ensureOptions.passwordHash ?? (await hashPassword(checkedPassword(ensureOptions.password ?? temporaryPassword!)));
      if (!passwordHash.startsWith('scrypt$')) throw new InvalidAccountInputError('passwordHash must be a scrypt hash (hashPassword)');
      // Another call may have created it while this one hashed: the first one stands.
      const raced = byEmail.get(normalized);
      if (raced) return { account: raced, created: false };
      const account: IdentityAccount = { accountId: `acct_${randomBytes(10).toString('hex')}`, email: normalized, passwordHash };
      byEmail.set(normalized, account);
      if (options.file) writeAccounts(options.file, [...byEmail.values()]);
      return { account, created: true, ...(temporaryPassword ? { temporaryPassword } : {}) };
    },
    async verifyPassword(email, password) {
      const account = byEmail.get(normalizeEmail(email));
      const tooLong = password.length > MAX_PASSWORD_LENGTH;
      const matches = await passwordMatches(tooLong ? '' : password, account?.passwordHash ?? (await decoy));
      return account && matches && !tooLong ? account : undefined;
    },
    findById: (accountId) => byId().get(accountId),
    findByEmail: (email) => byEmail.get(normalizeEmail(email)),
  };
}

/** 16 characters of base64url (96 random bits), shown once to the inviter. */
export function generateTemporaryPassword(): string {
  return randomBytes(12).toString('base64url');
}

function checkedPassword(password: string): string {
  if (password.length < 8 || password.length > MAX_PASSWORD_LENGTH) throw new InvalidAccountInputError('password must be 8 to 1024 characters');
  return password;
}

function validEmail(email: string): string {
  const normalized = normalizeEmail(String(email ?? ''));
  if (!isPlausibleEmail(normalized) || normalized.length > 254) throw new InvalidAccountInputError('email must be an email address');
  return normalized;
}

const scrypt = (password: string, salt: Buffer, keyLength: number, parameters: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => scryptCallback(password, salt, keyLength, parameters, (error, key) => (error ? reject(error) : resolve(key))));

/**
 * The stored form of a password: scrypt with a random 16-byte salt, parameters kept beside it.
 *
 * @example
 * await hashPassword('correct horse'); // 'scrypt$32768$8$1$…$…'
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p, keyLength } = SCRYPT;
  const key = await scrypt(password, salt, keyLength, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether `password` hashes to `stored` (constant-time comparison of the keys); false for a malformed hash.
 *
 * @example
 * await passwordMatches('correct horse', await hashPassword('correct horse')); // true
 */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

function readAccounts(file: string | undefined): IdentityAccount[] {
  if (!file || !existsSync(file)) return [];
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { accounts?: IdentityAccount[] };
  return (saved.accounts ?? []).filter(
    (account) => typeof account.accountId === 'string' && typeof account.email === 'string' && typeof account.passwordHash === 'string',
  );
}

/** Whole file, owner-only, renamed into place so a crash never leaves half a file. */
function writeAccounts(file: string, accounts: IdentityAccount[]): void {
  const partial = `${file}.partial`;
  writeFileSync(partial, `${JSON.stringify({ accounts }, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, file);
}
