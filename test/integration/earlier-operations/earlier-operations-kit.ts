/**
 * Helpers of the earlier-operations integration tests (generate-key, send-single, send-bulk,
 * send-freeform); not a test file itself. Builds on the broadcast test kit.
 */
import { getServices } from '../../../functions/composition';
import { demoPriceMicros } from '../../../local/demo-tenant';
import { adminCommands } from '../../../shared/tenancy/admin-commands';
import type { TestResponse, TestRuntime } from '../../support/local-runtime';
import { issueKey } from '../broadcast/broadcast-test-kit';

export const PUBLIC_PATH = '/prod/api/v2/broadcast/public';

/** Demo pricing (local/demo-tenant.ts) in micro-units per UTILITY / MARKETING message. */
export const PRICE_MICROS = { utility: demoPriceMicros('utility'), marketing: demoPriceMicros('marketing') };

/** Money as the cost summary shows it: micro-units / 10^6. */
export const units = (micros: number): number => micros / 1_000_000;

export const walletMicros = async (organizationId: string): Promise<number> =>
  (await getServices().tenancy.repository.getWallet(organizationId))?.balanceMicros ?? 0;

/**
 * The failure body of the broadcast surface (the contract's generate-key failure body): every
 * field, with the message given and the status repeated; `details`: what the error object carries
 * besides code and message (send-single's `Invalid phone number format`: the field and the rule).
 */
export function expectFailureBody(response: TestResponse, statusCode: number, message: string, path: string, details: Record<string, string> = {}): void {
  expect(response.status).toBe(statusCode);
  expect(response.body).toEqual({
    statusCode,
    timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    path: `${PUBLIC_PATH}${path}`,
    method: 'POST',
    requestId: expect.any(String),
    message,
    status: false,
    status_code: statusCode,
    ...(response.body?.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: response.body.retryAfterSeconds }),
    data: {
      error: {
        code: expect.any(String),
        message,
        ...details,
        ...(response.body?.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: response.body.retryAfterSeconds }),
      },
    },
  });
  expect(response.body.requestId.length).toBeGreaterThan(0);
}

/** Start of the 403 message for a route outside the scope of a key minted by generate-key; the route's name follows. */
export const OUTSIDE_SCOPE = 'This API key was issued by generate-key and may call only send-single, send-bulk and the status of its own jobs, not ';

export interface ProvisionedOrganization {
  organizationId: string;
  apiKey: string;
  wabaId: string;
  phoneNumber: string;
  phoneNumberId: string;
}

let provisioned = 0;

/**
 * A new organization with its own business account in the sandbox (one number, an `order_update`
 * UTILITY template with two placeholders like the demo's), an active subscription unless told
 * otherwise, a wallet of `walletMicros` (none when 0) and an unbound broadcast key. generate-key
 * stays off (the default of new organizations) unless `keyGeneration` turns it on, through the
 * operators' own command.
 */
export async function provisionOrganization(
  runtime: TestRuntime,
  options: { name: string; walletMicros: number; subscription?: boolean; businessAccount?: boolean; keyGeneration?: boolean },
): Promise<ProvisionedOrganization> {
  provisioned += 1;
  const suffix = String(provisioned).padStart(3, '0');
  const wabaId = `110000000900${suffix}`;
  const phoneNumber = `1555090${suffix.padStart(4, '0')}`;
  const phoneNumberId = `120000000900${suffix}`;
  const accessToken = `sandbox-token-provisioned-${suffix}`;
  const tenancy = getServices().tenancy;
  const { organizationId } = await tenancy.admin.createOrganization({ name: options.name, plan: 'enterprise' });
  if (options.subscription ?? true) {
    await adminCommands['set-subscription'].run(tenancy, {
      org: organizationId,
      status: 'active',
      plan: 'enterprise',
      'period-end': new Date(Date.now() + 30 * 86_400_000).toISOString(),
    });
  }
  if (options.walletMicros > 0) await tenancy.admin.topUpWallet({ organizationId, amountMicros: options.walletMicros });
  if (options.keyGeneration) await adminCommands['set-key-generation'].run(tenancy, { org: organizationId, enabled: 'true' });
  if (options.businessAccount ?? true) {
    runtime.sandbox!.registerBusinessAccount({
      wabaId,
      businessId: `110000000800${suffix}`,
      name: options.name,
      accessToken,
      phoneNumbers: [{ id: phoneNumberId, displayPhoneNumber: phoneNumber, verifiedName: options.name, qualityRating: 'GREEN' }],
      templates: [
        {
          id: `130000000900${suffix}`,
          name: 'order_update',
          language: 'en_US',
          category: 'UTILITY',
          status: 'APPROVED',
          components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }],
        },
      ],
    });
    await tenancy.admin.connectBusinessAccount({ organizationId, wabaId, businessId: `110000000800${suffix}`, name: options.name, accessToken });
    await tenancy.admin.addPhoneNumber({ organizationId, wabaId, digits: phoneNumber, phoneNumberId });
  }
  const apiKey = (await issueKey(organizationId)).secret;
  return { organizationId, apiKey, wabaId, phoneNumber, phoneNumberId };
}
