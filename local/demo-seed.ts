/**
 * The demo tenant the local runtime creates on first boot: two organizations with business
 * accounts in the Cloud API sandbox, sender numbers, templates, employees, wallet, pricing and
 * one credential of every kind. It goes through the same admin commands an operator uses.
 *
 * Seeding is re-runnable: organizations are found again through the claim on their business
 * account, every step is an upsert, and credentials are simply issued anew (the plaintext of
 * earlier ones is not recoverable, by design).
 */
import { randomBytes } from 'node:crypto';
import type { Services } from '../functions/composition';
import type { SandboxBusinessAccount } from '../sandbox/cloud-api-sandbox';
import { adminCommands } from '../shared/tenancy/admin-commands';
import type { Plan } from '../shared/tenancy/tenancy-entities';
import type { TenancyServices } from '../shared/tenancy/tenancy-services';
import { withClickBaseUrl } from './demo-rich-templates';
import {
  demoEmployees,
  demoPricing,
  demoRetailAccount,
  demoRetailSecondAccount,
  demoRetailSettings,
  demoSandboxAccounts,
  otherOrgAccount,
  otherOrgSettings,
  type DemoOrganizationSettings,
} from './demo-tenant';

export type { SandboxBusinessAccount };
export { demoSandboxAccounts };

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

/**
 * The demo Meta app's webhook settings: the sandbox signs its webhooks with the app secret, and
 * the platform checks them with it; the verify token answers the subscription handshake. Made
 * once per seeded tenant and kept in `.local/demo.json` like every other demo credential.
 */
export interface DemoMetaApp {
  metaAppSecret: string;
  webhookVerifyToken: string;
}

export function generateDemoMetaApp(): DemoMetaApp {
  return { metaAppSecret: randomBytes(32).toString('hex'), webhookVerifyToken: randomBytes(18).toString('base64url') };
}

export interface DemoTenant extends DemoCredentials, DemoMetaApp {
  wabaId: string;
  /** A second business account of the same business and organization (template migration source). */
  secondWabaId: string;
  phoneNumbers: string[];
  phoneNumberIds: string[];
  templates: DemoTemplate[];
  employees: string[];
  otherOrg: DemoCredentials & { wabaId: string; phoneNumber: string; phoneNumberId: string };
}

/** Highest numbered placeholder in the template's text components. */
export function countPlaceholders(components: ReadonlyArray<Record<string, unknown>>): number {
  let highest = 0;
  for (const component of components) {
    if (typeof component.text !== 'string') continue;
    for (const match of component.text.matchAll(/\{\{(\d+)\}\}/g)) highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}

async function findOrCreateOrganization(
  tenancy: TenancyServices,
  account: SandboxBusinessAccount,
  name: string,
  plan: Plan,
  apiAddOn: boolean,
): Promise<string> {
  const claim = await tenancy.repository.getIdentifierClaim('waba-id', account.wabaId);
  if (claim) {
    await adminCommands['set-plan'].run(tenancy, { org: claim.organizationId, plan, 'api-add-on': String(apiAddOn) });
    return claim.organizationId;
  }
  const organization = await adminCommands['create-organization'].run(tenancy, { name, plan, 'api-add-on': String(apiAddOn) });
  return organization.organizationId;
}

async function connectBusinessAccount(tenancy: TenancyServices, org: string, account: SandboxBusinessAccount): Promise<void> {
  await adminCommands['connect-business-account'].run(tenancy, {
    org,
    'waba-id': account.wabaId,
    'business-id': account.businessId,
    name: account.name,
    'access-token': account.accessToken,
  });
}

async function seedOrganization(services: Services, account: SandboxBusinessAccount, settings: DemoOrganizationSettings): Promise<DemoCredentials> {
  const tenancy = services.tenancy;
  const organizationId = await findOrCreateOrganization(tenancy, account, settings.name, settings.plan, settings.apiAddOn);
  const org = organizationId;
  const periodEnd = new Date(services.clock.now().getTime() + 365 * 86_400_000).toISOString();
  await adminCommands['set-subscription'].run(tenancy, { org, status: 'active', plan: settings.plan, 'period-end': periodEnd });
  await adminCommands['top-up-wallet'].run(tenancy, { org, amount: settings.walletTopUp });
  await connectBusinessAccount(tenancy, org, account);
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

export async function seedDemoTenant(services: Services, sandbox: { registerBusinessAccount(account: SandboxBusinessAccount): void }): Promise<DemoTenant> {
  const [retail, other, retailSecond] = [demoRetailAccount(), otherOrgAccount(), demoRetailSecondAccount()];
  // The tracked-link template's URL is this runtime's redirect (CLICK_BASE_URL).
  retail.templates = withClickBaseUrl(retail.templates, services.config.clicks.baseUrl);
  for (const account of [retail, other, retailSecond]) sandbox.registerBusinessAccount(account);

  for (const [country, [marketing, utility, authentication]] of Object.entries(demoPricing)) {
    await adminCommands['set-pricing'].run(services.tenancy, { country, marketing, utility, authentication });
  }

  const demo = await seedOrganization(services, retail, demoRetailSettings);
  await connectBusinessAccount(services.tenancy, demo.organizationId, retailSecond);
  const otherOrg = await seedOrganization(services, other, otherOrgSettings);
  const otherPhone = other.phoneNumbers[0]!;

  return {
    ...demo,
    ...generateDemoMetaApp(),
    wabaId: retail.wabaId,
    secondWabaId: retailSecond.wabaId,
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
  // Data seeded before Demo Retail had a second business account is seeded again (upserts), so it gets one.
  for (const account of accounts) if (!(await repository.getIdentifierClaim('waba-id', account.wabaId))) return false;
  const lastSeeded = await repository.findPhoneNumberByDigits(accounts[1]!.phoneNumbers[0]!.displayPhoneNumber);
  const credentials = lastSeeded ? await repository.listCredentials(lastSeeded.organizationId) : [];
  return credentials.some((credential) => credential.kind === 'v1-api-key' && credential.revokedAt === undefined);
}
