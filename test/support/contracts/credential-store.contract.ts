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
  });
}
