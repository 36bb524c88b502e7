import { parseAppConfig } from '../../../shared/config/app-config';

test('ALLOW_INSECURE_LOCAL_RECEIVERS defaults to false (AWS) and is parsed strictly', () => {
  expect(parseAppConfig({}).allowInsecureLocalReceivers).toBe(false);
  expect(parseAppConfig({ ALLOW_INSECURE_LOCAL_RECEIVERS: '' }).allowInsecureLocalReceivers).toBe(false);
  expect(parseAppConfig({ ALLOW_INSECURE_LOCAL_RECEIVERS: 'false' }).allowInsecureLocalReceivers).toBe(false);
  expect(parseAppConfig({ ALLOW_INSECURE_LOCAL_RECEIVERS: 'true' }).allowInsecureLocalReceivers).toBe(true);
  expect(parseAppConfig({ ALLOW_INSECURE_LOCAL_RECEIVERS: '1' }).allowInsecureLocalReceivers).toBe(true);
  expect(() => parseAppConfig({ ALLOW_INSECURE_LOCAL_RECEIVERS: 'yes please' })).toThrow('ALLOW_INSECURE_LOCAL_RECEIVERS must be true or false');
});
