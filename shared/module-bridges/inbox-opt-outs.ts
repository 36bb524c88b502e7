/** The inbox's opt-out list seen by other modules: broadcasts read it (at accept and again at send time), the delivery processor adds to it. */
import type { SuppressionList } from '../broadcast/ports';
import type { MarketingPreference, MarketingPreferenceSink, OptOutRecorder } from '../delivery/ports';
import { addOptOut, applyMarketingPreference, type OptOutPorts, type OptOutRepository } from '../inbox/opt-outs';

/** The broadcast module's SuppressionList: numbers matched by opt-out key (the accept path and the chunk worker; the store reads the list or a BatchGet per 100 keys). */
export class InboxSuppressionList implements SuppressionList {
  constructor(private readonly optOuts: Pick<OptOutRepository, 'findSuppressed'>) {}

  suppressedAmong(organizationId: string, phoneNumbers: readonly string[]): Promise<ReadonlySet<string>> {
    return this.optOuts.findSuppressed(organizationId, phoneNumbers);
  }
}

/**
 * The delivery processor's OptOutRecorder and MarketingPreferenceSink answered by the inbox: failure
 * 131050 adds the recipient (source `webhook-131050`); a `user_preferences` stop or resume is applied
 * under the user's BSUID and number, each following its pair (source `user-preference`).
 */
export class InboxOptOutRecorder implements OptOutRecorder, MarketingPreferenceSink {
  constructor(private readonly ports: OptOutPorts) {}

  async recordStoppedMarketing(organizationId: string, phoneNumber: string): Promise<void> {
    await addOptOut(this.ports, { organizationId, phoneNumber, source: 'webhook-131050' });
  }

  async recordMarketingPreference(organizationId: string, preference: MarketingPreference): Promise<void> {
    const keys = [preference.userId, preference.phoneNumber].filter((key): key is string => key !== undefined);
    await applyMarketingPreference(this.ports, { organizationId, keys, value: preference.value, at: preference.timestamp });
  }
}
