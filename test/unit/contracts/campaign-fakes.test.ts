/** The campaign fakes pass the same contracts as the DynamoDB adapters (test/integration/contracts/campaign-adapters.test.ts). */
import { describeCampaignStoreContract } from '../../support/contracts/campaign-store.contract';
import { describePersonClaimsContract } from '../../support/contracts/person-claims.contract';
import { InMemoryCampaignStore, InMemoryPersonClaims } from '../../support/in-memory-campaign-store';

describeCampaignStoreContract('InMemoryCampaignStore', () => new InMemoryCampaignStore());
describePersonClaimsContract('InMemoryPersonClaims', () => new InMemoryPersonClaims());
