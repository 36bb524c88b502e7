/**
 * A `user_preferences` stop attributed as an opt-out to the person's latest touch within its window
 * (InboundAttribution.stoppedMarketing, called by apply-user-preferences.ts): what a campaign's
 * canary counts beside STOP replies (docs/CAMPAIGNS.md "Canary and halt thresholds").
 */
import { applyUserPreferences } from '../../../shared/delivery/apply-user-preferences';
import { defaultOptInKeywords, defaultOptOutKeywords, optOutKeywordsOf } from '../../../shared/inbox/opt-outs';
import { InboundAttribution } from '../../../shared/outcomes/attribute-inbound';
import { FakeLedgerDeliveryStore, RecordingLog } from '../../support/delivery-fakes';
import { InMemoryOutcomeStore } from '../../support/in-memory-outcome-store';
import { InMemoryTouchStore } from '../../support/in-memory-touch-store';

const PHONE = '447700900001';
const BSUID = 'GB.2938475610293847';
const DELIVERED = new Date('2026-12-01T10:00:00.000Z');
const HOUR_MS = 3_600_000;

async function setUp(touch: { heldOut?: true } = {}) {
  const outcomes = new InMemoryOutcomeStore();
  const touches = new InMemoryTouchStore();
  await touches.recordTouches('org_a', [
    {
      personKeys: [PHONE, BSUID],
      touch: { jobId: 'pub_1', campaignId: 'cmp_1', chunkIndex: 0, index: 7, at: DELIVERED.toISOString(), windowHours: 24, ...touch },
    },
  ]);
  const attribution = new InboundAttribution({
    ledger: new FakeLedgerDeliveryStore(),
    outcomes,
    touches,
    optOutKeywords: optOutKeywordsOf(defaultOptOutKeywords, defaultOptInKeywords),
  });
  return { outcomes, attribution };
}

describe('a user_preferences stop', () => {
  it('is an opt-out of the latest touch within its window, by number or BSUID, once', async () => {
    const { outcomes, attribution } = await setUp();
    const at = new Date(DELIVERED.getTime() + 2 * HOUR_MS);
    await attribution.stoppedMarketing('org_a', [BSUID], at);
    await attribution.stoppedMarketing('org_a', [PHONE], new Date(at.getTime() + 1000));
    expect(await outcomes.outcomesOf('pub_1', 7)).toEqual({ optedOutAt: at.toISOString() });
  });

  it('outside the window, before the touch, for a held-out person or another organization: nothing', async () => {
    const { outcomes, attribution } = await setUp();
    await attribution.stoppedMarketing('org_a', [PHONE], new Date(DELIVERED.getTime() + 25 * HOUR_MS));
    await attribution.stoppedMarketing('org_a', [PHONE], new Date(DELIVERED.getTime() - 1000));
    await attribution.stoppedMarketing('org_b', [PHONE], new Date(DELIVERED.getTime() + HOUR_MS));
    expect(outcomes.writes).toEqual([]);
    const heldOut = await setUp({ heldOut: true });
    await heldOut.attribution.stoppedMarketing('org_a', [PHONE], new Date(DELIVERED.getTime() + HOUR_MS));
    expect(heldOut.outcomes.writes).toEqual([]);
  });

  it('is attributed by the delivery processor after the opt-out list records it; a resume is not', async () => {
    const { outcomes, attribution } = await setUp();
    const recorded: string[] = [];
    const preferences = { recordMarketingPreference: async (_organizationId: string, preference: { value: string }) => void recorded.push(preference.value) };
    const change = (value: 'stop' | 'resume', at: Date) => ({
      kind: 'user-preferences' as const,
      entryId: 'waba-a',
      phoneNumberId: 'pn_a',
      preferences: [{ phoneNumber: PHONE, value, timestamp: at }],
    });
    await applyUserPreferences(
      { preferences, attribution, log: new RecordingLog() },
      change('resume', new Date(DELIVERED.getTime() + HOUR_MS)),
      Promise.resolve({ organizationId: 'org_a' }),
    );
    expect(outcomes.writes).toEqual([]);
    const stop = new Date(DELIVERED.getTime() + 3 * HOUR_MS);
    await applyUserPreferences({ preferences, attribution, log: new RecordingLog() }, change('stop', stop), Promise.resolve({ organizationId: 'org_a' }));
    expect(recorded).toEqual(['resume', 'stop']);
    expect(await outcomes.outcomesOf('pub_1', 7)).toEqual({ optedOutAt: stop.toISOString() });
  });
});
