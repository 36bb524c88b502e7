/** The contact policy's use cases, the operators' commands and the cached read (shared/send-rules/contact-policy.ts, contact-policy-admin-commands.ts). */
import { CachedContactPolicies, checkContactPolicy, getContactPolicy, removeContactPolicy, setContactPolicy } from '../../../shared/send-rules/contact-policy';
import { runContactPolicyAdminCommand } from '../../../shared/send-rules/contact-policy-admin-commands';
import { ContactPolicyOutsideKeyScopeError, InvalidContactPolicyError } from '../../../shared/send-rules/errors';
import { InMemoryContactPolicyStore } from '../../support/in-memory-contact-policy-store';

const now = new Date('2026-12-01T10:00:00.000Z');
const ports = () => ({ policies: new InMemoryContactPolicyStore(), clock: { now: () => now } });

describe('the contact policy', () => {
  it('is off by default; set, read and removed, with who set it and the default category', async () => {
    const p = ports();
    await expect(getContactPolicy(p, 'org_1')).resolves.toEqual({ policy: null });
    const set = await setContactPolicy(p, { organizationId: 'org_1', by: 'person:ppl_1' }, { marketingPerPerson: 2, perDays: 7 });
    const policy = { marketingPerPerson: 2, perDays: 7, categories: ['MARKETING'], updatedAt: now.toISOString(), updatedBy: 'person:ppl_1' };
    expect(set).toEqual({ policy });
    await expect(getContactPolicy(p, 'org_1')).resolves.toEqual({ policy });
    await expect(getContactPolicy(p, 'org_2')).resolves.toEqual({ policy: null });
    await expect(removeContactPolicy(p, { organizationId: 'org_1', by: 'admin' })).resolves.toEqual({ policy: null });
    await expect(getContactPolicy(p, 'org_1')).resolves.toEqual({ policy: null });
  });

  it.each([
    [{ marketingPerPerson: 0, perDays: 7 }, 'marketingPerPerson must be at least 1'],
    [{ marketingPerPerson: 2.5, perDays: 7 }, 'marketingPerPerson must be a whole number'],
    [{ marketingPerPerson: 2, perDays: 366 }, 'perDays must be at most 365'],
    [{ marketingPerPerson: 2 }, 'perDays is required'],
    [{ marketingPerPerson: 2, perDays: 7, categories: ['MARKETING', 'SERVICE'] }, 'categories[1] must be one of MARKETING, UTILITY, AUTHENTICATION'],
    [{ marketingPerPerson: 2, perDays: 7, categories: [] }, 'categories must hold at least 1 category'],
    [{ marketingPerPerson: 2, perDays: 7, categories: ['UTILITY', 'UTILITY'] }, 'categories must not repeat a category'],
    [{ marketingPerPerson: 2, perDays: 7, cap: 1 }, 'cap is not a field of the policy (marketingPerPerson, perDays, categories)'],
    ['2 per 7', 'policy must be an object of marketingPerPerson, perDays and categories'],
  ])('refuses %j naming the field: %s', (input, message) => {
    expect(() => checkContactPolicy(input)).toThrow(new InvalidContactPolicyError(message));
  });

  it('refuses a change through a key bound to one sender', async () => {
    const editor = { organizationId: 'org_1', by: 'cred_1', scope: { kind: 'sender' as const, phoneNumber: '15550001111' } };
    await expect(setContactPolicy(ports(), editor, { marketingPerPerson: 2, perDays: 7 })).rejects.toBeInstanceOf(ContactPolicyOutsideKeyScopeError);
    await expect(removeContactPolicy(ports(), editor)).rejects.toBeInstanceOf(ContactPolicyOutsideKeyScopeError);
  });

  it('the cached read keeps a policy for its time to live, then reads again', async () => {
    const store = new InMemoryContactPolicyStore();
    let nowMs = now.getTime();
    const cached = new CachedContactPolicies(store, { now: () => new Date(nowMs) }, 60_000);
    await cached.policyOf('org_1');
    await store.setPolicy('org_1', { marketingPerPerson: 1, perDays: 7, updatedAt: now.toISOString() });
    await expect(cached.policyOf('org_1')).resolves.toBeUndefined();
    nowMs += 60_000;
    await expect(cached.policyOf('org_1')).resolves.toMatchObject({ marketingPerPerson: 1 });
    expect(store.reads).toBe(2);
  });
});

describe("the operators' set-contact-policy", () => {
  it('sets a policy from flags (categories comma-separated), shows it, and removes it with --off', async () => {
    const p = ports();
    const set = await runContactPolicyAdminCommand(p, 'set-contact-policy', {
      org: 'org_1',
      'marketing-per-person': '2',
      'per-days': '7',
      categories: 'marketing, utility',
    });
    expect(set).toEqual({
      organizationId: 'org_1',
      policy: { marketingPerPerson: 2, perDays: 7, categories: ['MARKETING', 'UTILITY'], updatedAt: now.toISOString(), updatedBy: 'admin' },
    });
    await expect(runContactPolicyAdminCommand(p, 'show-contact-policy', { org: 'org_1' })).resolves.toMatchObject({ policy: { marketingPerPerson: 2 } });
    await expect(runContactPolicyAdminCommand(p, 'set-contact-policy', { org: 'org_1', off: '' })).resolves.toEqual({ organizationId: 'org_1', policy: null });
    await expect(p.policies.policyOf('org_1')).resolves.toBeUndefined();
  });

  it.each([
    [{ 'marketing-per-person': '2', 'per-days': '7' }, '--org is required'],
    [{ org: 'org_1', 'per-days': '7' }, '--marketing-per-person is required (or --off to remove the policy)'],
    [{ org: 'org_1', 'marketing-per-person': 'two', 'per-days': '7' }, '--marketing-per-person (marketingPerPerson) must be a whole number'],
    [{ org: 'org_1', 'marketing-per-person': '2', 'per-days': '0' }, 'perDays must be at least 1'],
    [{ org: 'org_1', off: '', 'per-days': '7' }, '--off removes the policy; give it without --per-days'],
    [{ org: 'org_1', cap: '1' }, 'Unknown flag --cap for set-contact-policy'],
  ])('refuses %j: %s', async (flags, message) => {
    await expect(runContactPolicyAdminCommand(ports(), 'set-contact-policy', flags)).rejects.toThrow(new InvalidContactPolicyError(message));
  });
});
