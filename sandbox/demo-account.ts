/**
 * The business account `sandbox/main.ts` serves, so the sandbox is usable by hand with curl:
 * one number, an approved template without parameters, one with two, and one still pending.
 */
import type { SandboxBusinessAccount } from './sandbox-types';

export const DEMO_ACCESS_TOKEN = 'sandbox-demo-token';

export function demoBusinessAccount(accessToken: string = DEMO_ACCESS_TOKEN): SandboxBusinessAccount {
  return {
    wabaId: '100000000000001',
    businessId: '100000000000000',
    name: 'Sandbox Demo Business',
    accessToken,
    phoneNumbers: [{ id: '200000000000001', displayPhoneNumber: '15550001001', verifiedName: 'Sandbox Demo' }],
    templates: [
      {
        id: '300000000000001',
        name: 'hello_world',
        language: 'en_US',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Hello World' },
          { type: 'BODY', text: 'Welcome and congratulations!! This message comes from the local Cloud API sandbox.' },
          { type: 'FOOTER', text: 'WhatsApp Business Platform sandbox' },
        ],
      },
      {
        id: '300000000000002',
        name: 'order_update',
        language: 'en_US',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }],
      },
      {
        id: '300000000000003',
        name: 'spring_sale',
        language: 'en_US',
        category: 'MARKETING',
        status: 'PENDING',
        components: [{ type: 'BODY', text: 'Hi {{1}}, our spring sale starts today!' }],
      },
    ],
  };
}
