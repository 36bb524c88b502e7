/** The fairness fakes pass the contracts their DynamoDB adapters pass (test/integration/contracts/customer-event-fairness-adapters.test.ts). */
import { describeEndpointHealthStoreContract, describeRedeliveryQuotaContract } from '../../support/contracts/customer-event-fairness.contract';
import { InMemoryEndpointHealthStore, InMemoryRedeliveryQuota } from '../../support/customer-event-fairness-fakes';

describeEndpointHealthStoreContract('InMemoryEndpointHealthStore', () => new InMemoryEndpointHealthStore());
describeRedeliveryQuotaContract('InMemoryRedeliveryQuota', () => new InMemoryRedeliveryQuota());
