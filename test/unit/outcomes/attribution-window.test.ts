/** `attributionWindowHours` of the template broadcast and follow-up bodies: whole hours 1..720, optional (docs/BROADCAST.md "Attribution window"). */
import { parseTemplateBroadcastRequest } from '../../../shared/broadcast/template-broadcast.schema';
import { followUpSchema } from '../../../shared/broadcast/follow-up.schema';
import { parseRequest } from '../../../shared/http/validation';

const body = (extra: Record<string, unknown>) => ({
  broadcastName: 'b',
  fromPhoneNumber: '15550001001',
  templateName: 't',
  templateLanguage: 'en',
  templateType: 'MARKETING',
  data: [{ countryCode: '44', toPhoneNumber: '7700900001' }],
  ...extra,
});

it('takes a whole number of hours from 1 to 720, and nothing when absent', () => {
  expect(parseTemplateBroadcastRequest(body({ attributionWindowHours: 1 })).attributionWindowHours).toBe(1);
  expect(parseTemplateBroadcastRequest(body({ attributionWindowHours: 720 })).attributionWindowHours).toBe(720);
  expect(parseTemplateBroadcastRequest(body({}))).not.toHaveProperty('attributionWindowHours');
});

it.each([
  [0, 'attributionWindowHours must be at least 1'],
  [721, 'attributionWindowHours must be at most 720'],
  [1.5, 'attributionWindowHours must be a whole number of hours'],
  ['72', 'attributionWindowHours must be a whole number of hours'],
])('refuses %p, naming the field and the rule', (value, message) => {
  expect(() => parseTemplateBroadcastRequest(body({ attributionWindowHours: value }))).toThrow(message);
});

it('a follow-up body takes it too', () => {
  const { data: _data, ...rest } = body({ attributionWindowHours: 24 });
  expect(parseRequest(followUpSchema, { ...rest, audience: { statuses: ['READ'] } }).attributionWindowHours).toBe(24);
});
