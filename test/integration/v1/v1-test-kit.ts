/** Organizations for v1 tests, provisioned inside the test process (the runtime runs in it too). */
import { getServices } from '../../../functions/composition';
import type { Plan } from '../../../shared/tenancy/tenancy-entities';

let numberSequence = 0;
/** Sender digits no other test in this process uses (phone numbers are claimed globally). */
export const uniqueSenderDigits = (): string => `1777${String(process.pid % 1000).padStart(3, '0')}${String((numberSequence += 1)).padStart(5, '0')}`;

export interface V1Organization {
  organizationId: string;
  /** `Authorization` header with the organization's v1 key. */
  auth: { authorization: string };
  senders: string[];
}

/**
 * An organization with a v1 key and `senderCount` sender numbers. The key is issued while the plan
 * allows it (enterprise), then the plan is set as asked, so a plan without the API can be tested.
 */
export async function provisionV1Organization(options: { plan: Plan; apiAddOn: boolean; senderCount?: number }): Promise<V1Organization> {
  const admin = getServices().tenancy.admin;
  const organization = await admin.createOrganization({ name: `v1 ${options.plan}`, plan: 'enterprise' });
  const organizationId = organization.organizationId;
  const senders: string[] = [];
  if (options.senderCount) {
    const wabaId = `waba${uniqueSenderDigits()}`;
    await admin.connectBusinessAccount({ organizationId, wabaId, businessId: `biz${wabaId}`, name: 'v1 test', accessToken: 'sandbox-token-unused' });
    for (let index = 0; index < options.senderCount; index += 1) {
      const digits = uniqueSenderDigits();
      await admin.addPhoneNumber({ organizationId, wabaId, digits, phoneNumberId: `pn${digits}` });
      senders.push(digits);
    }
  }
  const key = await admin.issueCredential({ organizationId, kind: 'v1-api-key' });
  await admin.setOrganizationPlan({ organizationId, plan: options.plan, apiAddOn: options.apiAddOn });
  return { organizationId, auth: { authorization: `Bearer ${key.secret}` }, senders };
}
