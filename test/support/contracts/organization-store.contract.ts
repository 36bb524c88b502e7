/**
 * What every OrganizationStore does, as observed through the port: run once against the in-memory fake
 * (test/unit/contracts) and once against the DynamoDB adapter on dynalite (test/integration/contracts),
 * so the fake the unit tests rely on cannot drift from the adapter. Where they disagree, the adapter
 * is the truth.
 */
import { OrganizationAlreadyExistsError, OrganizationNotFoundError } from '../../../shared/tenancy/errors';
import type { OrganizationStore } from '../../../shared/tenancy/tenancy-stores';
import { at, fresh, later, organization } from './tenancy-contract-fixtures';

export function describeOrganizationStoreContract(name: string, makeRepository: () => OrganizationStore | Promise<OrganizationStore>): void {
  describe(`OrganizationStore contract: ${name}`, () => {
    let repository: OrganizationStore;
    beforeAll(async () => {
      repository = await makeRepository();
    });

    describe('organizations', () => {
      it('creates once, reads back, refuses a second create of the same id', async () => {
        const org = organization();
        await repository.createOrganization(org);
        expect(await repository.getOrganization(org.organizationId)).toEqual(org);
        await expect(repository.createOrganization({ ...org, name: 'Again' })).rejects.toBeInstanceOf(OrganizationAlreadyExistsError);
        expect(await repository.getOrganization(org.organizationId)).toEqual(org);
        expect(await repository.getOrganization(fresh('org_'))).toBeUndefined();
      });

      it('changes the plan and returns the organization as stored; an unknown one is OrganizationNotFoundError', async () => {
        const org = organization();
        await repository.createOrganization(org);
        const changed = await repository.updateOrganizationPlan(org.organizationId, { plan: 'enterprise', apiAddOn: true, updatedAt: later });
        expect(changed).toEqual({ ...org, plan: 'enterprise', apiAddOn: true, updatedAt: later });
        expect(await repository.getOrganization(org.organizationId)).toEqual(changed);
        await expect(repository.updateOrganizationPlan(fresh('org_'), { plan: 'starter', apiAddOn: false, updatedAt: later })).rejects.toBeInstanceOf(
          OrganizationNotFoundError,
        );
      });

      it('sets the US marketing guard and returns the organization as stored; an unknown one is OrganizationNotFoundError', async () => {
        const org = organization();
        await repository.createOrganization(org);
        const off = await repository.updateOrganizationUsMarketingGuard(org.organizationId, { usMarketingGuard: false, updatedAt: later });
        expect(off).toEqual({ ...org, usMarketingGuard: false, updatedAt: later });
        expect(await repository.getOrganization(org.organizationId)).toEqual(off);
        await expect(repository.updateOrganizationUsMarketingGuard(fresh('org_'), { usMarketingGuard: true, updatedAt: later })).rejects.toBeInstanceOf(
          OrganizationNotFoundError,
        );
      });

      it('suspends (the first time stays, the reason is replaced) and resumes (both fields removed, resumedAt recorded; a new suspension removes it); an unknown one is OrganizationNotFoundError', async () => {
        const org = organization();
        await repository.createOrganization(org);
        const suspended = await repository.setOrganizationSuspension(org.organizationId, { suspension: { suspendedAt: at, reason: 'fraud' }, updatedAt: at });
        expect(suspended).toEqual({ ...org, status: 'suspended', suspendedAt: at, suspensionReason: 'fraud', updatedAt: at });
        const again = await repository.setOrganizationSuspension(org.organizationId, {
          suspension: { suspendedAt: later, reason: 'unpaid' },
          updatedAt: later,
        });
        expect(again).toEqual({ ...org, status: 'suspended', suspendedAt: at, suspensionReason: 'unpaid', updatedAt: later });
        expect(await repository.getOrganization(org.organizationId)).toEqual(again);
        const resumed = await repository.setOrganizationSuspension(org.organizationId, { suspension: undefined, updatedAt: later });
        expect(resumed).toEqual({ ...org, status: 'active', updatedAt: later, resumedAt: later });
        expect(await repository.getOrganization(org.organizationId)).toEqual(resumed);
        const suspendedAgain = await repository.setOrganizationSuspension(org.organizationId, {
          suspension: { suspendedAt: later, reason: 'again' },
          updatedAt: later,
        });
        expect(suspendedAgain).toEqual({ ...org, status: 'suspended', suspendedAt: later, suspensionReason: 'again', updatedAt: later });
        await expect(repository.setOrganizationSuspension(fresh('org_'), { suspension: undefined, updatedAt: later })).rejects.toBeInstanceOf(
          OrganizationNotFoundError,
        );
      });
    });
  });
}
