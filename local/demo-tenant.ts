/**
 * The demo tenant as data, in one place: the two organizations' business accounts as the Cloud
 * API sandbox serves them (numbers, WABA ids, templates, upstream tokens), their plans, wallets
 * and employees, and the demo pricing. Plain data with no imports beyond types and its rich
 * templates (local/demo-rich-templates.ts, apart for size), so the seed
 * (local/demo-seed.ts), the stand-alone sandbox (sandbox/main.ts), benchmarks and tests all derive
 * from it instead of repeating ids.
 */
import type { SandboxBusinessAccount } from '../sandbox/sandbox-types';
import { demoRichTemplates } from './demo-rich-templates';
import type { Plan } from '../shared/tenancy/tenancy-entities';
import type { PersonRole } from '../shared/people/person-role';

export interface DemoOrganizationSettings {
  name: string;
  plan: Plan;
  apiAddOn: boolean;
  /** Decimal USD. */
  walletTopUp: string;
  employees: ReadonlyArray<{ email: string; role: 'admin' | 'member' }>;
  /** Lets the public generate-key operation issue keys for the organization's numbers (off by default). */
  keyGeneration: boolean;
}

export const demoEmployees = ['alice@demo-retail.example', 'bob@demo-retail.example', 'carol@demo-retail.example'] as const;

/**
 * The demo people: one per console role, members of Demo Retail with that role and accounts of the
 * local identity provider with these fixed passwords (docs/PEOPLE.md "Locally"; listed in
 * `.local/demo.json` as `people`). Demo only: the local provider never runs outside a developer's machine.
 */
export const demoPeople: ReadonlyArray<{ email: string; password: string; role: PersonRole }> = [
  { email: 'admin@demo.example', password: 'demo-admin-password', role: 'admin' },
  { email: 'manager@demo.example', password: 'demo-manager-password', role: 'campaign-manager' },
  { email: 'viewer@demo.example', password: 'demo-viewer-password', role: 'viewer' },
];

/**
 * The first organization: two numbers, nine templates (`holiday_offer` PENDING on purpose; the
 * last five have media, buttons, named parameters, a carousel and a limited-time offer).
 */
export const demoRetailAccount = (): SandboxBusinessAccount => ({
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
    ...demoRichTemplates(),
    {
      // A max price (Meta's optimization_spec): sent through /marketing_messages only (docs/BROADCAST.md "Marketing Messages API").
      id: '130000000000010',
      name: 'capped_offer',
      language: 'en',
      category: 'MARKETING',
      status: 'APPROVED',
      components: [{ type: 'BODY', text: 'Hi {{1}}, members save 15% this weekend.' }],
      optimizationSpec: { bid_amount: 0.05, bid_strategy: 'LOWEST_COST_WITH_BID_CAP' },
    },
  ],
});

/**
 * A second business account of Demo Retail's business (same `businessId`), connected to the same
 * organization: the source the README's template migration copies from. No numbers, so every list
 * of senders stays the first account's.
 */
export const demoRetailSecondAccount = (): SandboxBusinessAccount => ({
  wabaId: '110000000000002',
  businessId: '110000000000000',
  name: 'Demo Retail Outlet',
  accessToken: 'sandbox-token-demo-retail-outlet',
  phoneNumbers: [],
  templates: [
    {
      id: '130000000000021',
      name: 'back_in_stock',
      language: 'en_US',
      category: 'MARKETING',
      status: 'APPROVED',
      components: [{ type: 'BODY', text: 'Good news, {{1}}: {{2}} is back in stock at Demo Retail Outlet.' }],
    },
    {
      id: '130000000000022',
      name: 'pickup_ready',
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} is ready for pickup.' }],
    },
  ],
});

/** The second organization, to try isolation: one number, one template. */
export const otherOrgAccount = (): SandboxBusinessAccount => ({
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

/** The business accounts the sandbox must serve, first organization first (Demo Retail's second account last); fresh copies on every call. */
export function demoSandboxAccounts(): SandboxBusinessAccount[] {
  return [demoRetailAccount(), otherOrgAccount(), demoRetailSecondAccount()];
}

export const demoRetailSettings: DemoOrganizationSettings = {
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
};

/** Professional plus the API add-on, so the v1 API is usable at the professional limit. */
export const otherOrgSettings: DemoOrganizationSettings = {
  name: 'Other Org',
  plan: 'professional',
  apiAddOn: true,
  walletTopUp: '100.00',
  keyGeneration: false,
  employees: [{ email: demoEmployees[2], role: 'member' }],
};

/** USD per message by destination calling code: [marketing, utility, authentication]. */
export const demoPricing = {
  '1': ['0.0250', '0.0040', '0.0135'],
  '44': ['0.0529', '0.0220', '0.0358'],
  '49': ['0.1365', '0.0550', '0.0768'],
  '55': ['0.0625', '0.0080', '0.0315'],
  '91': ['0.0107', '0.0014', '0.0014'],
  '971': ['0.0384', '0.0157', '0.0178'],
} as const satisfies Record<string, readonly [marketing: string, utility: string, authentication: string]>;

export type DemoCallingCode = keyof typeof demoPricing;

const retail = demoRetailAccount();
const retailSecond = demoRetailSecondAccount();
const other = otherOrgAccount();

/** Template ids by name, for the names given; fails at load if the data above lost one. */
function templateIdsOf<Name extends string>(account: SandboxBusinessAccount, names: readonly Name[]): Record<Name, string> {
  return Object.fromEntries(
    names.map((name) => {
      const template = account.templates.find((candidate) => candidate.name === name);
      if (!template) throw new Error(`demo account ${account.wabaId} has no template ${name}`);
      return [name, template.id];
    }),
  ) as Record<Name, string>;
}

/** The fixed ids of the demo tenant, for tests and benchmarks that address it directly. */
export const demoIds = {
  wabaId: retail.wabaId,
  businessId: retail.businessId,
  /** Sender numbers (digits), in account order. */
  senders: retail.phoneNumbers.map((phone) => phone.displayPhoneNumber),
  phoneNumberIds: retail.phoneNumbers.map((phone) => phone.id),
  /** Template id by name. */
  templateIds: templateIdsOf(retail, [
    'order_update',
    'spring_sale',
    'welcome_message',
    'holiday_offer',
    'order_shipped',
    'summer_coupon',
    'welcome_named',
    'spring_carousel',
    'flash_deal',
    'capped_offer',
    'new_arrivals',
  ]),
  /** The token the sandbox accepts for the account (what the /upstream wrapper sends upstream). */
  upstreamToken: retail.accessToken,
  /** Demo Retail's second business account, same business: a template migration source. */
  secondWabaId: retailSecond.wabaId,
  otherOrg: {
    wabaId: other.wabaId,
    businessId: other.businessId,
    sender: other.phoneNumbers[0]!.displayPhoneNumber,
    phoneNumberId: other.phoneNumbers[0]!.id,
    templateIds: templateIdsOf(other, ['appointment_reminder']),
    upstreamToken: other.accessToken,
  },
} as const;

/** Micro-units (USD x 10^6) per message, by category and calling code, as the seed stores them. */
export function demoPriceMicros(category: 'marketing' | 'utility' | 'authentication'): Record<DemoCallingCode, number> {
  const column = { marketing: 0, utility: 1, authentication: 2 }[category];
  const entries = Object.entries(demoPricing).map(([country, prices]) => [country, Math.round(Number(prices[column]) * 1_000_000)]);
  return Object.fromEntries(entries) as Record<DemoCallingCode, number>;
}
