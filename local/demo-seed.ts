/**
 * The demo tenant the local runtime creates on first boot: two organizations with business
 * accounts in the Cloud API sandbox, sender numbers, templates, employees, wallet, pricing and
 * one credential of every kind. It goes through the same admin commands an operator uses.
 *
 * Seeding is re-runnable: organizations are found again through the claim on their business
 * account, every step is an upsert, and credentials are simply issued anew (the plaintext of
 * earlier ones is not recoverable, by design).
 */
import type { Services } from '../functions/composition';
import type { SandboxBusinessAccount } from '../sandbox/cloud-api-sandbox';
import { adminCommands } from '../shared/tenancy/admin-commands';
import type { Plan } from '../shared/tenancy/tenancy-entities';
import type { TenancyServices } from '../shared/tenancy/tenancy-services';

export type { SandboxBusinessAccount };

export interface DemoTemplate {
  name: string;
  language: string;
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  /** Number of numbered placeholders ({{1}}, {{2}}, …) a send must fill. */
  placeholders: number;
  /** Only APPROVED templates can be sent; `holiday_offer` is PENDING on purpose. */
  status: string;
}

export interface DemoCredentials {
  organizationId: string;
  /** Broadcast API key (`x-api-key`), not bound to a number. */
  apiKey: string;
  /** Organization token (`Authorization: Bearer`, organization administration). */
  orgToken: string;
  /** Access token of the /upstream wrapper. */
  accessToken: string;
  /** v1 API key. */
  v1ApiKey: string;
}

export interface DemoTenant extends DemoCredentials {
  wabaId: string;
  phoneNumbers: string[];
  phoneNumberIds: string[];
  templates: DemoTemplate[];
  employees: string[];
  otherOrg: DemoCredentials & { wabaId: string; phoneNumber: string; phoneNumberId: string };
}

const demoRetailAccount = (): SandboxBusinessAccount => ({
  wabaId: '110000000000001',
  businessId: '110000000000000',
  name: 'Demo Retail',
  accessToken: 'sandbox-token-demo-retail',
  phoneNumbers: [
    { id: '120000000000001', displayPhoneNumber: '15550100001', verifiedName: 'Demo Retail', qualityRating: 'GREEN' },
    { id: '120000000000002', displayPhoneNumber: '15550100002', verifiedName: 'Demo Retail Support', qualityRating: 'GREEN' },
  ],
  templates: [
    {
      id: '130000000000001',
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      components: [
        { type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' },
        { type: 'FOOTER', text: 'Demo Retail' },
      ],
    },
    {
      id: '130000000000002',
      name: 'spring_sale',
      language: 'en',
      category: 'MARKETING',
      status: 'APPROVED',
      components: [{ type: 'BODY', text: 'Hi {{1}}, our spring sale starts today: 20% off everything in store and online.' }],
    },
    {
      id: '130000000000003',
      name: 'welcome_message',
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      components: [{ type: 'BODY', text: 'Welcome to Demo Retail! We will keep you posted about your orders here.' }],
    },
    {
      id: '130000000000004',
      name: 'holiday_offer',
      language: 'en',
      category: 'MARKETING',
      status: 'PENDING',
      components: [{ type: 'BODY', text: 'Happy holidays, {{1}}! Enjoy free shipping until the end of the year.' }],
    },
  ],
});

const otherOrgAccount = (): SandboxBusinessAccount => ({
  wabaId: '110000000000011',
  businessId: '110000000000010',
  name: 'Other Org',
  accessToken: 'sandbox-token-other-org',
  phoneNumbers: [{ id: '120000000000011', displayPhoneNumber: '15550200001', verifiedName: 'Other Org', qualityRating: 'GREEN' }],
  templates: [
    {
      id: '130000000000011',
      name: 'appointment_reminder',
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      components: [{ type: 'BODY', text: 'Reminder: your appointment is on {{1}}.' }],
    },
  ],
});

/** The business accounts the sandbox must serve; deterministic so the runtime can register them on every boot. */
export function demoSandboxAccounts(): SandboxBusinessAccount[] {
  return [demoRetailAccount(), otherOrgAccount()];
}

export const demoEmployees = ['alice@demo-retail.example', 'bob@demo-retail.example', 'carol@demo-retail.example'] as const;

/** USD per message by destination calling code: [marketing, utility, authentication]. */
const demoPricing: Record<string, [string, string, string]> = {
  '1': ['0.0250', '0.0040', '0.0135'],
  '44': ['0.0529', '0.0220', '0.0358'],
  '49': ['0.1365', '0.0550', '0.0768'],
  '55': ['0.0625', '0.0080', '0.0315'],
  '91': ['0.0107', '0.0014', '0.0014'],
  '971': ['0.0384', '0.0157', '0.0178'],
};

/** Highest numbered placeholder in the template's text components. */
export function countPlaceholders(components: ReadonlyArray<Record<string, unknown>>): number {
  let highest = 0;
  for (const component of components) {
    if (typeof component.text !== 'string') continue;
    for (const match of component.text.matchAll(/\{\{(\d+)\}\}/g)) highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}

async function findOrCreateOrganization(tenancy: TenancyServices, account: SandboxBusinessAccount, name: string, plan: Plan, apiAddOn: boolean): Promise<string> {
  const claim = await tenancy.repository.getIdentifierClaim('waba-id', account.wabaId);
  if (claim) {
    await adminCommands['set-plan'].run(tenancy, { org: claim.organizationId, plan, 'api-add-on': String(apiAddOn) });
    return claim.organizationId;
  }
  const organization = await adminCommands['create-organization'].run(tenancy, { name, plan, 'api-add-on': String(apiAddOn) });
  return organization.organizationId;
}

async function seedOrganization(
  services: Services,
  account: SandboxBusinessAccount,
  settings: {
    name: string;
    plan: Plan;
    apiAddOn: boolean;
    walletTopUp: string;
    employees: ReadonlyArray<{ email: string; role: 'admin' | 'member' }>;
    /** Lets the public generate-key operation issue keys for the organization's numbers (off by default). */
    keyGeneration: boolean;
  },
): Promise<DemoCredentials> {
  const tenancy = services.tenancy;
  const organizationId = await findOrCreateOrganization(tenancy, account, settings.name, settings.plan, settings.apiAddOn);
  const org = organizationId;
  const periodEnd = new Date(services.clock.now().getTime() + 365 * 86_400_000).toISOString();
  await adminCommands['set-subscription'].run(tenancy, { org, status: 'active', plan: settings.plan, 'period-end': periodEnd });
  await adminCommands['top-up-wallet'].run(tenancy, { org, amount: settings.walletTopUp });
  await adminCommands['connect-business-account'].run(tenancy, {
    org,
    'waba-id': account.wabaId,
    'business-id': account.businessId,
    name: account.name,
    'access-token': account.accessToken,
  });
  for (const phone of account.phoneNumbers) {
    await adminCommands['add-phone-number'].run(tenancy, {
      org,
      'waba-id': account.wabaId,
      'phone-number': phone.displayPhoneNumber,
      'phone-number-id': phone.id,
    });
  }
  for (const employee of settings.employees) {
    await adminCommands['add-employee'].run(tenancy, { org, email: employee.email, role: employee.role });
  }
  await adminCommands['set-key-generation'].run(tenancy, { org, enabled: String(settings.keyGeneration) });
  const apiKey = await adminCommands['issue-broadcast-key'].run(tenancy, { org });
  const orgToken = await adminCommands['issue-organization-token'].run(tenancy, { org });
  const accessToken = await adminCommands['issue-upstream-token'].run(tenancy, { org });
  const v1ApiKey = await adminCommands['issue-v1-key'].run(tenancy, { org });
  return { organizationId, apiKey: apiKey.secret, orgToken: orgToken.secret, accessToken: accessToken.secret, v1ApiKey: v1ApiKey.secret };
}

export async function seedDemoTenant(
  services: Services,
  sandbox: { registerBusinessAccount(account: SandboxBusinessAccount): void },
): Promise<DemoTenant> {
  const [retail, other] = [demoRetailAccount(), otherOrgAccount()];
  for (const account of [retail, other]) sandbox.registerBusinessAccount(account);

  for (const [country, [marketing, utility, authentication]] of Object.entries(demoPricing)) {
    await adminCommands['set-pricing'].run(services.tenancy, { country, marketing, utility, authentication });
  }

  const demo = await seedOrganization(services, retail, {
    name: 'Demo Retail',
    plan: 'enterprise',
    apiAddOn: false,
    walletTopUp: '500.00',
    // The local demo of the earlier operations mints keys with generate-key.
    keyGeneration: true,
    employees: [
      { email: demoEmployees[0], role: 'admin' },
      { email: demoEmployees[1], role: 'member' },
      { email: demoEmployees[2], role: 'member' },
    ],
  });
  // Professional plus the API add-on, so the v1 API is usable at the professional limit.
  const otherOrg = await seedOrganization(services, other, {
    name: 'Other Org',
    plan: 'professional',
    apiAddOn: true,
    walletTopUp: '100.00',
    keyGeneration: false,
    employees: [{ email: demoEmployees[2], role: 'member' }],
  });
  const otherPhone = other.phoneNumbers[0]!;

  return {
    ...demo,
    wabaId: retail.wabaId,
    phoneNumbers: retail.phoneNumbers.map((phone) => phone.displayPhoneNumber),
    phoneNumberIds: retail.phoneNumbers.map((phone) => phone.id),
    templates: retail.templates.map((template) => ({
      name: template.name,
      language: template.language,
      category: template.category,
      placeholders: countPlaceholders(template.components),
      status: template.status,
    })),
    employees: [...demoEmployees],
    otherOrg: { ...otherOrg, wabaId: other.wabaId, phoneNumber: otherPhone.displayPhoneNumber, phoneNumberId: otherPhone.id },
  };
}

/**
 * Whether a previous boot completed the seed (with persisted data): both organizations own their
 * numbers and the last-issued credentials exist. The runtime then reuses `.local/demo.json`.
 */
export async function isDemoSeeded(services: Services): Promise<boolean> {
  const repository = services.tenancy.repository;
  const accounts = demoSandboxAccounts();
  for (const account of accounts) {
    for (const phone of account.phoneNumbers) {
      if (!(await repository.findPhoneNumberByDigits(phone.displayPhoneNumber))) return false;
    }
  }
  const lastSeeded = await repository.findPhoneNumberByDigits(accounts[1]!.phoneNumbers[0]!.displayPhoneNumber);
  const credentials = lastSeeded ? await repository.listCredentials(lastSeeded.organizationId) : [];
  return credentials.some((credential) => credential.kind === 'v1-api-key' && credential.revokedAt === undefined);
}
