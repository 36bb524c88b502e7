/**
 * Shared fixtures for the Cloud API sandbox tests: two accounts and message builders. The sandbox
 * itself and its HTTP client come from test/support/use-sandbox.ts.
 */
import type { SandboxBusinessAccount } from '../../../sandbox/cloud-api-sandbox';
export type { HttpResult } from '../../support/use-sandbox';

export const TOKEN = 'token-account-a';
export const OTHER_TOKEN = 'token-account-b';
export const WABA_ID = '1000001';
export const OTHER_WABA_ID = '1000002';
export const PHONE_ID = '2000001';
export const SECOND_PHONE_ID = '2000002';
export const OTHER_PHONE_ID = '2000003';
export const RECIPIENT = '15551234567';

export function accountA(): SandboxBusinessAccount {
  return {
    wabaId: WABA_ID,
    businessId: '9000001',
    name: 'Account A',
    accessToken: TOKEN,
    phoneNumbers: [
      { id: PHONE_ID, displayPhoneNumber: '15550001001', verifiedName: 'Shop A' },
      { id: SECOND_PHONE_ID, displayPhoneNumber: '447700900123', verifiedName: 'Shop A UK', qualityRating: 'YELLOW' },
    ],
    templates: [
      {
        id: '3000001',
        name: 'order_update',
        language: 'en_US',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Hi {{1}}, order {{2}} shipped.' }],
      },
      {
        id: '3000002',
        name: 'order_update',
        language: 'de',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Hallo {{1}}, Bestellung {{2}} ist unterwegs.' }],
      },
      {
        id: '3000003',
        name: 'spring_sale',
        language: 'en_US',
        category: 'MARKETING',
        status: 'PENDING',
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Sale for {{1}}' },
          { type: 'BODY', text: 'Everything is 20% off.' },
        ],
      },
      {
        id: '3000004',
        name: 'hello',
        language: 'en_US',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: 'Hello there' },
        ],
      },
    ],
  };
}

/** The accounts every sandbox test starts with: A (first, so its token and first number are the client's defaults) and B. */
export function fixtureAccounts(): SandboxBusinessAccount[] {
  return [accountA(), accountB()];
}

export function accountB(): SandboxBusinessAccount {
  return {
    wabaId: OTHER_WABA_ID,
    businessId: '9000002',
    name: 'Account B',
    accessToken: OTHER_TOKEN,
    phoneNumbers: [{ id: OTHER_PHONE_ID, displayPhoneNumber: '15550002002', verifiedName: 'Shop B' }],
    templates: [],
  };
}

export function textMessage(to: string = RECIPIENT, text = 'hello'): Record<string, unknown> {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { body: text } };
}

export function templateMessage(name: string, code: string, bodyParams: string[], to: string = RECIPIENT): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    to,
    type: 'template',
    template: {
      name,
      language: { code },
      components: bodyParams.length === 0 ? [] : [{ type: 'body', parameters: bodyParams.map((text) => ({ type: 'text', text })) }],
    },
  };
}

/** A clock tests move by hand, for rules measured in hours and weeks. Starts mid-January 2026, UTC. */
export class TestClock {
  now = Date.UTC(2026, 0, 15, 12, 0, 0);

  advance(ms: number): void {
    this.now += ms;
  }

  get seconds(): number {
    return Math.floor(this.now / 1000);
  }
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export function expectGraphError(result: { status: number; body: any }, status: number, code: number): void {
  expect(result.status).toBe(status);
  expect(result.body.error).toMatchObject({ code, type: expect.any(String), message: expect.any(String) });
  expect(result.body.error.fbtrace_id).toMatch(/^A[\w-]{22}$/);
}

/** A multipart form as fetch sends it. */
export function uploadForm(fields: Record<string, string>, file?: { name: string; type?: string; data: Buffer | string; field?: string }): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  if (file !== undefined) {
    const data = typeof file.data === 'string' ? Buffer.from(file.data) : file.data;
    form.set(file.field ?? 'file', new Blob([data], file.type === undefined ? {} : { type: file.type }), file.name);
  }
  return form;
}
