/** ContactPolicyStore in memory, as DynamoDbContactPolicyStore: one policy per organization, replaced whole, removed with `undefined`. `reads` counts policyOf calls (the cache's tests). */
import type { ContactPolicy, ContactPolicyStore } from '../../shared/send-rules/ports';

export class InMemoryContactPolicyStore implements ContactPolicyStore {
  private readonly policies = new Map<string, ContactPolicy>();
  reads = 0;

  async policyOf(organizationId: string): Promise<ContactPolicy | undefined> {
    this.reads += 1;
    const policy = this.policies.get(organizationId);
    return policy && structuredClone(policy);
  }

  async setPolicy(organizationId: string, policy: ContactPolicy | undefined): Promise<void> {
    if (policy === undefined) this.policies.delete(organizationId);
    else this.policies.set(organizationId, structuredClone(policy));
  }
}
