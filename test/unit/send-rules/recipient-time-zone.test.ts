import {
  countryMainZone,
  isKnownZone,
  MAIN_ZONE_OF_COUNTRY,
  recipientTimeZone,
  UNKNOWN_ZONE,
  zoneOfNumber,
} from '../../../shared/send-rules/recipient-time-zone';

describe('a recipient time zone', () => {
  it('is the timeZone attribute when it is a valid IANA zone', () => {
    expect(recipientTimeZone({ to: '919800000001', timeZone: 'Europe/Paris' })).toBe('Europe/Paris');
    expect(recipientTimeZone({ to: '919800000001', timeZone: 'Mars/Olympus' })).toBe('Asia/Calcutta');
    expect(recipientTimeZone({ to: '919800000001', timeZone: 'EST' })).toBe('Asia/Calcutta');
  });

  it('is the zone of the number by its area code where the country has several', () => {
    expect(zoneOfNumber('12125550123')).toBe('America/New_York');
    expect(zoneOfNumber('14155550123')).toBe('America/Los_Angeles');
    expect(zoneOfNumber('13125550123')).toBe('America/Chicago');
    expect(zoneOfNumber('18085550123')).toBe('Pacific/Honolulu');
    expect(zoneOfNumber('61851087000')).toBe('Australia/Perth');
    expect(zoneOfNumber('5511987654321')).toBe('America/Sao_Paulo');
  });

  it('is the country main zone when the data gives the prefix several zones', () => {
    expect(zoneOfNumber('447700900123')).toBe('Europe/London');
    expect(zoneOfNumber('15555550123')).toBe('America/New_York');
    expect(zoneOfNumber('919800000001')).toBe('Asia/Calcutta');
  });

  it('is the country main zone for a BSUID, UTC when nothing is known', () => {
    expect(recipientTimeZone({ to: 'US.13491208655302741918' })).toBe('America/New_York');
    expect(recipientTimeZone({ to: 'IN.13491208655302741918' })).toBe('Asia/Calcutta');
    expect(recipientTimeZone({ to: 'BR.ENT.13491208655302741918' })).toBe('America/Sao_Paulo');
    expect(recipientTimeZone({ to: 'XX.13491208655302741918' })).toBe(UNKNOWN_ZONE);
    expect(recipientTimeZone({ to: '999123' })).toBe(UNKNOWN_ZONE);
  });

  it('main zones: the table for countries of several zones, Intl for countries of one', () => {
    for (const zone of Object.values(MAIN_ZONE_OF_COUNTRY)) expect(isKnownZone(zone)).toBe(true);
    expect(countryMainZone('FR')).toBe('Europe/Paris');
    expect(countryMainZone('US')).toBe('America/New_York');
    expect(countryMainZone('ZZ')).toBeUndefined();
    expect(countryMainZone('usa')).toBeUndefined();
  });
});
