/**
 * The tenancy table (pk/sk + gsi1): its keys, the single source of the layout (docs/DATA-MODEL.md),
 * and the reads and writes every tenancy store's adapter makes on it. Only single-item operations
 * (no transactions, which dynalite lacks); reads that decide access are strongly consistent; every
 * fault a retry can mend surfaces as TenancyStoreUnavailableError.
 */
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DeleteCommandOutput,
  type DynamoDBDocumentClient,
  type GetCommandOutput,
  type PutCommandOutput,
  type QueryCommandInput,
  type QueryCommandOutput,
  type UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { TenancyStoreUnavailableError, type ClaimedIdentifierKind } from '../../tenancy/errors';
import { classifyStoreFaults, storeFault } from './dynamodb-errors';

type Item = Record<string, unknown>;

/** Key builders: the single source of the table layout. */
export const tenancyKeys = {
  organization: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'ORGANIZATION' }),
  businessAccount: (organizationId: string, wabaId: string) => ({ pk: `ORG#${organizationId}`, sk: `WABA#${wabaId}` }),
  phoneNumber: (organizationId: string, digits: string) => ({ pk: `ORG#${organizationId}`, sk: `PHONE#${digits}` }),
  claim: (kind: ClaimedIdentifierKind, value: string) => ({ pk: `CLAIM#${claimSegment[kind]}#${value}`, sk: 'CLAIM' }),
  credential: (secretHash: string) => ({ pk: `CREDENTIAL#${secretHash}`, sk: 'CREDENTIAL' }),
  credentialIndex: (organizationId: string, credentialId: string) => ({ gsi1pk: `CREDENTIALS#ORG#${organizationId}`, gsi1sk: credentialId }),
  /** The holders of the organization's slots for keys minted by generate-key (a string set, `holders`). */
  generatedKeySlots: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'GENERATED_KEY_SLOTS' }),
  user: (email: string) => ({ pk: `USER#${email}`, sk: 'USER' }),
  membership: (organizationId: string, email: string) => ({ pk: `ORG#${organizationId}`, sk: `MEMBER#${email}` }),
  membershipIndex: (organizationId: string, email: string) => ({ gsi1pk: `USER#${email}`, gsi1sk: `MEMBER#ORG#${organizationId}` }),
  membershipRemoval: (organizationId: string, removedAt: string, email: string) => ({
    pk: `ORG#${organizationId}`,
    sk: `AUDIT#MEMBER_REMOVED#${removedAt}#${email}`,
  }),
  wallet: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'WALLET' }),
  countryPricing: (countryCallingCode: string) => ({ pk: 'PRICING', sk: `COUNTRY#${countryCallingCode}` }),
  subscription: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'SUBSCRIPTION' }),
  /** The platform's Meta app settings (shared/adapters/dynamodb/dynamodb-meta-app-settings.ts). */
  metaApp: () => ({ pk: 'PLATFORM', sk: 'META_APP' }),
  /** The platform's rate card and an organization's own (dynamodb-rate-card-store.ts). */
  platformRateCard: () => ({ pk: 'PLATFORM', sk: 'RATE_CARD' }),
  organizationRateCard: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'RATE_CARD' }),
  /** Customer webhook endpoints (dynamodb-webhook-endpoint-registry.ts); `webhookEndpointPrefix` lists them. */
  webhookEndpoint: (organizationId: string, endpointId: string) => ({ pk: `ORG#${organizationId}`, sk: `WEBHOOK#${endpointId}` }),
  webhookEndpointPrefix: 'WEBHOOK#',
  /** The organization's contact policy, its frequency cap (dynamodb-contact-policy-store.ts). */
  contactPolicy: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'CONTACT_POLICY' }),
};

const claimSegment: Record<ClaimedIdentifierKind, string> = {
  'waba-id': 'WABA',
  'phone-number-digits': 'PHONE',
  'phone-number-id': 'PHONE_ID',
};

const keyAttributes = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'entity']);

/**
 * Strips the table's key attributes and the entity tag, leaving the domain record.
 *
 * @example
 * const organization = toEntity<Organization>(await table.get(tenancyKeys.organization(organizationId)));
 */
export function toEntity<T>(item: Item | undefined): T | undefined {
  if (!item) return undefined;
  return Object.fromEntries(Object.entries(item).filter(([name]) => !keyAttributes.has(name))) as T;
}

/** The tenancy table as each store's adapter reaches it (one instance per adapter). */
export class TenancyTable {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {
    classifyStoreFaults(this.client);
  }

  async get(key: { pk: string; sk: string }): Promise<Item | undefined> {
    const result = await this.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return result.Item;
  }

  async put(item: Item, conditionExpression?: string): Promise<void> {
    await this.send(new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: conditionExpression }));
  }

  /** An item partition's records whose sort key starts with the prefix, in sort-key order (consistent). */
  async queryPartition<T>(pk: string, sortKeyPrefix: string): Promise<T[]> {
    return this.queryAll<T>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': sortKeyPrefix },
      ConsistentRead: true,
    });
  }

  /** Every record a query matches, over all its pages. */
  async queryAll<T>(input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
    const entities: T[] = [];
    let exclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.send(new QueryCommand({ ...input, TableName: this.tableName, ExclusiveStartKey: exclusiveStartKey }));
      for (const item of page.Items ?? []) entities.push(toEntity<T>(item)!);
      exclusiveStartKey = page.LastEvaluatedKey;
    } while (exclusiveStartKey);
    return entities;
  }

  /** Every call goes through here so timeouts and unreachable stores surface as one domain error. */
  send(command: GetCommand): Promise<GetCommandOutput>;
  send(command: PutCommand): Promise<PutCommandOutput>;
  send(command: UpdateCommand): Promise<UpdateCommandOutput>;
  send(command: DeleteCommand): Promise<DeleteCommandOutput>;
  send(command: QueryCommand): Promise<QueryCommandOutput>;
  async send(command: GetCommand | PutCommand | UpdateCommand | DeleteCommand | QueryCommand): Promise<unknown> {
    try {
      // The document client's send is overloaded per command; the union above is what the adapters use.
      return await this.client.send(command as GetCommand);
    } catch (error) {
      throw storeFault(error, TenancyStoreUnavailableError, 'Tenancy store');
    }
  }
}
