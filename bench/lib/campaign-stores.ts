/**
 * The campaign bench's direct reads and writes: the audience store's DynamoDB adapter (seeding
 * audiences too large to import in a bench's time) and the campaign store's (the expander's
 * checkpoint, which the API does not show), over the operators' services' SDK client, so a
 * request counter attached to it sees them too.
 */
import type { Services } from '../../functions/composition';
import { DynamoDbAudienceStore } from '../../shared/adapters/dynamodb/dynamodb-audience-store';
import { DynamoDbCampaignStore } from '../../shared/adapters/dynamodb/dynamodb-campaign-store';
import type { AudienceStore } from '../../shared/audiences/ports';
import type { CampaignStore } from '../../shared/campaigns/ports';

export function audienceStoreOf(services: Services): AudienceStore {
  return new DynamoDbAudienceStore(services.clients.dynamoDb, services.config.tableNames.inbox);
}

export function campaignStoreOf(services: Services): CampaignStore {
  return new DynamoDbCampaignStore(services.clients.dynamoDb, services.config.tableNames.messaging);
}
