/**
 * What every CredentialStore does, as observed through the port: run once against the in-memory fake
 * (test/unit/contracts) and once against the DynamoDB adapter on dynalite (test/integration/contracts),
 * so the fake the unit tests rely on cannot drift from the adapter. Where they disagree, the adapter
 * is the truth.
 */
import { CredentialNotFoundError } from '../../../shared/tenancy/errors';
import type { CredentialStore } from '../../../shared/tenancy/tenancy-stores';
import { at, credential, fresh, later } from './tenancy-contract-fixtures';

export function describeCredentialStoreContract(name: string, makeRepository: () => CredentialStore | Promise<CredentialStore>): void {
  describe(`CredentialStore contract: ${name}`, () => {
    let repository: CredentialStore;
    beforeAll(async () => {
      repository = await makeRepository();
    });

    describe('credentials', () => {
      it('stores by hash, refuses a second credential with the same hash, lists by credential id', async () => {
        const organizationId = fresh('org_');
        const second = credential(organizationId, { credentialId: 'cred_b', kind: 'organization-token' });
        const first = credential(organizationId, { credentialId: 'cred_a', boundPhoneNumber: '15550000001', expiresAt: later });
        await repository.putCredential(second);
        await repository.putCredential(first);
        expect(await repository.getCredentialByHash(first.secretHash)).toEqual(first);
        await expect(repository.putCredential({ ...first, credentialId: 'cred_c' })).rejects.toThrow();
        expect(await repository.getCredentialByHash(first.secretHash)).toEqual(first);
        expect(await repository.listCredentials(organizationId)).toEqual([first, second]);
        expect(await repository.findCredentialById(organizationId, 'cred_b')).toEqual(second);
        expect(await repository.findCredentialById(fresh('org_'), 'cred_b')).toBeUndefined();
        expect(await repository.getCredentialByHash(fresh('hash'))).toBeUndefined();
      });

      it('revokes once (the first time stays), only within the owning organization', async () => {
        const organizationId = fresh('org_');
        const issued = credential(organizationId);
        await repository.putCredential(issued);
        await expect(repository.revokeCredential(issued.secretHash, fresh('org_'), at)).rejects.toBeInstanceOf(CredentialNotFoundError);
        expect(await repository.revokeCredential(issued.secretHash, organizationId, at)).toEqual({ ...issued, revokedAt: at });
        expect(await repository.revokeCredential(issued.secretHash, organizationId, later)).toEqual({ ...issued, revokedAt: at });
        expect(await repository.getCredentialByHash(issued.secretHash)).toEqual({ ...issued, revokedAt: at });
        await expect(repository.revokeCredential(fresh('hash'), organizationId, at)).rejects.toBeInstanceOf(CredentialNotFoundError);
      });
    });

    describe('slots of minted keys', () => {
      it('holds up to the limit; a holder holding one is answered true again (a retried write); released slots free up; per organization', async () => {
        const organizationId = fresh('org_');
        expect(await repository.listGeneratedKeySlots(organizationId)).toEqual([]);
        expect(await repository.holdGeneratedKeySlot(organizationId, `${at} cred_b`, 2)).toBe(true);
        expect(await repository.holdGeneratedKeySlot(organizationId, `${at} cred_a`, 2)).toBe(true);
        expect(await repository.holdGeneratedKeySlot(organizationId, `${at} cred_a`, 2)).toBe(true);
        expect(await repository.holdGeneratedKeySlot(organizationId, `${at} cred_c`, 2)).toBe(false);
        expect(await repository.listGeneratedKeySlots(organizationId)).toEqual([`${at} cred_a`, `${at} cred_b`]);
        expect(await repository.holdGeneratedKeySlot(fresh('org_'), `${at} cred_c`, 2)).toBe(true);

        await repository.releaseGeneratedKeySlot(organizationId, `${at} cred_b`);
        await repository.releaseGeneratedKeySlot(organizationId, `${at} cred_b`);
        await repository.releaseGeneratedKeySlot(organizationId, `${at} cred_never`);
        expect(await repository.holdGeneratedKeySlot(organizationId, `${at} cred_c`, 2)).toBe(true);
        expect(await repository.listGeneratedKeySlots(organizationId)).toEqual([`${at} cred_a`, `${at} cred_c`]);
        await repository.releaseGeneratedKeySlot(organizationId, `${at} cred_a`);
        await repository.releaseGeneratedKeySlot(organizationId, `${at} cred_c`);
        expect(await repository.listGeneratedKeySlots(organizationId)).toEqual([]);
        expect(await repository.holdGeneratedKeySlot(organizationId, `${at} cred_d`, 1)).toBe(true);
        await repository.releaseGeneratedKeySlot(fresh('org_'), `${at} cred_d`);
        expect(await repository.listGeneratedKeySlots(organizationId)).toEqual([`${at} cred_d`]);
      });
    });
  });
}
