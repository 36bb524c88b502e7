/** The delivery processor's IdentityPairSink answered by the inbox: Meta's BSUID ↔ phone pairs into the contact book, opt-outs aligned (shared/inbox/identity-pairs.ts). */
import type { IdentityPairSink, UserIdentityPair } from '../delivery/ports';
import { learnPairs, type IdentityPairPorts } from '../inbox/identity-pairs';

export class InboxIdentityPairs implements IdentityPairSink {
  constructor(private readonly ports: IdentityPairPorts) {}

  async recordPairs(organizationId: string, pairs: readonly UserIdentityPair[], options: { recheck?: boolean } = {}): Promise<void> {
    await learnPairs(
      this.ports,
      organizationId,
      pairs.map((pair) => ({ phoneNumber: pair.phoneNumber, userId: pair.userId, at: pair.at.toISOString() })),
      options,
    );
  }
}
