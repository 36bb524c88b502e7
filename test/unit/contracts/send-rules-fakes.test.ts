/** The send rules' fakes pass the same contracts as the DynamoDB adapters (test/integration/contracts/send-rules-adapters.test.ts). */
import { describeContactPolicyStoreContract, describeFrequencyCapStoreContract } from '../../support/contracts/send-rules-stores.contract';
import { InMemoryContactPolicyStore } from '../../support/in-memory-contact-policy-store';
import { InMemoryFrequencyCapStore } from '../../support/in-memory-frequency-cap-store';

describeContactPolicyStoreContract('InMemoryContactPolicyStore', () => new InMemoryContactPolicyStore());
describeFrequencyCapStoreContract('InMemoryFrequencyCapStore', () => new InMemoryFrequencyCapStore());
