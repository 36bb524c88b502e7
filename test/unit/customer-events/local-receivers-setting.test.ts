import { parseAppConfig } from '../../../shared/config/app-config';

test('CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK defaults to off (AWS), is parsed strictly and governs registration and delivery alike', () => {
  expect(parseAppConfig({}).allowInsecureLocalReceivers).toBe(false);
  expect(parseAppConfig({ CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK: '' }).allowInsecureLocalReceivers).toBe(false);
  expect(parseAppConfig({ CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK: '0' }).allowInsecureLocalReceivers).toBe(false);
  const local = parseAppConfig({ CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK: '1' });
  expect([local.allowInsecureLocalReceivers, local.customerEvents.localMode]).toEqual([true, true]);
  expect(() => parseAppConfig({ CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK: 'yes please' })).toThrow('CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK must be 0 or 1');
});
