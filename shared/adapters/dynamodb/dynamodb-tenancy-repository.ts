/**
 * The tenancy repository on one DynamoDB table (pk/sk + gsi1). The key layout is documented in
 * shared/tenancy/docs/DATA-MODEL.md. Only single-item operations are used (no transactions, which
 * dynalite lacks); reads that decide access are strongly consistent.
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
import {
  CredentialNotFoundError,
  IdentifierClaimedByAnotherOrganizationError,
  InsufficientBalanceError,
  OrganizationAlreadyExistsError,
  OrganizationNotFoundError,
  TenancyStoreUnavailableError,
  type ClaimedIdentifierKind,
} from '../../tenancy/errors';
import type {
  BusinessAccount,
  CountryPricing,
  Credential,
  Membership,
  MembershipRemoval,
  Organization,
  PhoneNumber,
  Plan,
  Subscription,
  User,
  Wallet,
} from '../../tenancy/tenancy-entities';
import type { IdentifierClaim, TenancyRepository } from '../../tenancy/tenancy-repository';
import { classifyStoreFaults, isConditionalCheckFailure, storeFault } from './dynamodb-errors';

type Item = Record<string, unknown>;

/** Key builders: the single source of the table layout. */
export const tenancyKeys = {
  organization: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'ORGANIZATION' }),
  businessAccount: (organizationId: string, wabaId: string) => ({ pk: `ORG#${organizationId}`, sk: `WABA#${wabaId}` }),
  phoneNumber: (organizationId: string, digits: string) => ({ pk: `ORG#${organizationId}`, sk: `PHONE#${digits}` }),
  claim: (kind: ClaimedIdentifierKind, value: string) => ({ pk: `CLAIM#${claimSegment[kind]}#${value}`, sk: 'CLAIM' }),
  credential: (secretHash: string) => ({ pk: `CREDENTIAL#${secretHash}`, sk: 'CREDENTIAL' }),
  credentialIndex: (organizationId: string, credentialId: string) => ({ gsi1pk: `CREDENTIALS#ORG#${organizationId}`, gsi1sk: credentialId }),
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
  /** Customer webhook endpoints (dynamodb-webhook-endpoint-registry.ts); `webhookEndpointPrefix` lists them. */
  webhookEndpoint: (organizationId: string, endpointId: string) => ({ pk: `ORG#${organizationId}`, sk: `WEBHOOK#${endpointId}` }),
  webhookEndpointPrefix: 'WEBHOOK#',
};

const claimSegment: Record<ClaimedIdentifierKind, string> = {
  'waba-id': 'WABA',
  'phone-number-digits': 'PHONE',
  'phone-number-id': 'PHONE_ID',
};

const keyAttributes = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'entity']);

/** Strips the table's key attributes and the entity tag, leaving the domain record. */
function toEntity<T>(item: Item | undefined): T | undefined {
  if (!item) return undefined;
  return Object.fromEntries(Object.entries(item).filter(([name]) => !keyAttributes.has(name))) as T;
}

export class DynamoDbTenancyRepository implements TenancyRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.client);
  }

  // Organizations

  async createOrganization(organization: Organization): Promise<void> {
    try {
      await this.put({ ...tenancyKeys.organization(organization.organizationId), entity: 'organization', ...organization }, 'attribute_not_exists(pk)');
    } catch (error) {
      if (isConditionalCheckFailure(error)) throw new OrganizationAlreadyExistsError(organization.organizationId);
      throw error;
    }
  }

  async getOrganization(organizationId: string): Promise<Organization | undefined> {
    return toEntity(await this.get(tenancyKeys.organization(organizationId)));
  }

  async updateOrganizationPlan(organizationId: string, change: { plan: Plan; apiAddOn: boolean; updatedAt: string }): Promise<Organization> {
    return this.updateOrganization(organizationId, change);
  }

  async updateOrganizationKeyGeneration(organizationId: string, change: { keyGenerationEnabled: boolean; updatedAt: string }): Promise<Organization> {
    return this.updateOrganization(organizationId, change);
  }

  /** SET of the given attributes on an existing organization (names are placeholders: `plan` is a reserved word). */
  private async updateOrganization(organizationId: string, change: Record<string, unknown>): Promise<Organization> {
    const names = Object.keys(change);
    try {
      const result = await this.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: tenancyKeys.organization(organizationId),
          UpdateExpression: `SET ${names.map((_, index) => `#a${index} = :a${index}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#a${index}`, name])),
          ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:a${index}`, change[name]])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toEntity<Organization>(result.Attributes)!;
    } catch (error) {
      if (isConditionalCheckFailure(error)) throw new OrganizationNotFoundError(organizationId);
      throw error;
    }
  }

  // Claims

  async claimIdentifier(claim: IdentifierClaim): Promise<{ newlyClaimed: boolean }> {
    try {
      const result = await this.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...tenancyKeys.claim(claim.kind, claim.value), entity: 'claim', ...claim },
          // Re-claiming by the owner refreshes the claim; anyone else is refused.
          ConditionExpression: 'attribute_not_exists(pk) OR organizationId = :organizationId',
          ExpressionAttributeValues: { ':organizationId': claim.organizationId },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return { newlyClaimed: result.Attributes === undefined };
    } catch (error) {
      if (isConditionalCheckFailure(error)) throw new IdentifierClaimedByAnotherOrganizationError(claim.kind, claim.value);
      throw error;
    }
  }

  async releaseIdentifier(kind: ClaimedIdentifierKind, value: string, organizationId: string): Promise<void> {
    try {
      await this.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: tenancyKeys.claim(kind, value),
          ConditionExpression: 'organizationId = :organizationId',
          ExpressionAttributeValues: { ':organizationId': organizationId },
        }),
      );
    } catch (error) {
      if (isConditionalCheckFailure(error)) return;
      throw error;
    }
  }

  async getIdentifierClaim(kind: ClaimedIdentifierKind, value: string): Promise<IdentifierClaim | undefined> {
    return toEntity(await this.get(tenancyKeys.claim(kind, value)));
  }

  // Business accounts and phone numbers

  async putBusinessAccount(account: BusinessAccount): Promise<void> {
    await this.put({ ...tenancyKeys.businessAccount(account.organizationId, account.wabaId), entity: 'business-account', ...account });
  }

  async getBusinessAccount(organizationId: string, wabaId: string): Promise<BusinessAccount | undefined> {
    return toEntity(await this.get(tenancyKeys.businessAccount(organizationId, wabaId)));
  }

  async listBusinessAccounts(organizationId: string): Promise<BusinessAccount[]> {
    return this.queryPartition(`ORG#${organizationId}`, 'WABA#');
  }

  async markBusinessAccountNeedsAuthorization(organizationId: string, wabaId: string, failedEncryptedAccessToken: string, at: string): Promise<void> {
    try {
      await this.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: tenancyKeys.businessAccount(organizationId, wabaId),
          UpdateExpression: 'SET #status = :status, updatedAt = :at',
          ConditionExpression: 'encryptedAccessToken = :failed',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': 'needs-authorization', ':at': at, ':failed': failedEncryptedAccessToken },
        }),
      );
    } catch (error) {
      if (isConditionalCheckFailure(error)) return;
      throw error;
    }
  }

  async putPhoneNumber(phoneNumber: PhoneNumber): Promise<void> {
    await this.put({ ...tenancyKeys.phoneNumber(phoneNumber.organizationId, phoneNumber.digits), entity: 'phone-number', ...phoneNumber });
  }

  async listPhoneNumbers(organizationId: string): Promise<PhoneNumber[]> {
    return this.queryPartition(`ORG#${organizationId}`, 'PHONE#');
  }

  async findPhoneNumberByDigits(digits: string): Promise<PhoneNumber | undefined> {
    return (await this.getIdentifierClaim('phone-number-digits', digits))?.phoneNumber;
  }

  async findPhoneNumberById(phoneNumberId: string): Promise<PhoneNumber | undefined> {
    return (await this.getIdentifierClaim('phone-number-id', phoneNumberId))?.phoneNumber;
  }

  // Credentials

  async putCredential(credential: Credential): Promise<void> {
    await this.put(
      {
        ...tenancyKeys.credential(credential.secretHash),
        ...tenancyKeys.credentialIndex(credential.organizationId, credential.credentialId),
        entity: 'credential',
        ...credential,
      },
      'attribute_not_exists(pk)',
    );
  }

  async getCredentialByHash(secretHash: string): Promise<Credential | undefined> {
    return toEntity(await this.get(tenancyKeys.credential(secretHash)));
  }

  async listCredentials(organizationId: string): Promise<Credential[]> {
    const { gsi1pk } = tenancyKeys.credentialIndex(organizationId, '');
    return this.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk },
    });
  }

  async findCredentialById(organizationId: string, credentialId: string): Promise<Credential | undefined> {
    const { gsi1pk, gsi1sk } = tenancyKeys.credentialIndex(organizationId, credentialId);
    const [credential] = await this.queryAll<Credential>({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk },
    });
    return credential;
  }

  async revokeCredential(secretHash: string, organizationId: string, revokedAt: string): Promise<Credential> {
    try {
      const result = await this.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: tenancyKeys.credential(secretHash),
          // if_not_exists keeps the first revocation time when revoking twice.
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :revokedAt)',
          ConditionExpression: 'organizationId = :organizationId',
          ExpressionAttributeValues: { ':revokedAt': revokedAt, ':organizationId': organizationId },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toEntity<Credential>(result.Attributes)!;
    } catch (error) {
      if (isConditionalCheckFailure(error)) throw new CredentialNotFoundError('(by hash)');
      throw error;
    }
  }

  // Users and memberships

  async putUserIfAbsent(user: User): Promise<void> {
    try {
      await this.put({ ...tenancyKeys.user(user.email), entity: 'user', ...user }, 'attribute_not_exists(pk)');
    } catch (error) {
      if (isConditionalCheckFailure(error)) return;
      throw error;
    }
  }

  async getUser(email: string): Promise<User | undefined> {
    return toEntity(await this.get(tenancyKeys.user(email)));
  }

  async putMembership(membership: Membership): Promise<void> {
    await this.put({
      ...tenancyKeys.membership(membership.organizationId, membership.email),
      ...tenancyKeys.membershipIndex(membership.organizationId, membership.email),
      entity: 'membership',
      ...membership,
    });
  }

  async getMembership(organizationId: string, email: string): Promise<Membership | undefined> {
    return toEntity(await this.get(tenancyKeys.membership(organizationId, email)));
  }

  async listMembershipsOfOrganization(organizationId: string): Promise<Membership[]> {
    return this.queryPartition(`ORG#${organizationId}`, 'MEMBER#');
  }

  async listMembershipsOfUser(email: string): Promise<Membership[]> {
    const { gsi1pk } = tenancyKeys.membershipIndex('', email);
    return this.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':prefix': 'MEMBER#ORG#' },
    });
  }

  async removeMembership(
    organizationId: string,
    email: string,
    audit: { removedAt: string; removedBy: string },
  ): Promise<MembershipRemoval | undefined> {
    const membership = await this.getMembership(organizationId, email);
    if (!membership) return undefined;
    const removal: MembershipRemoval = { ...membership, removedAt: audit.removedAt, removedBy: audit.removedBy };
    await this.put({ ...tenancyKeys.membershipRemoval(organizationId, audit.removedAt, email), entity: 'membership-removal', ...removal });
    try {
      await this.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: tenancyKeys.membership(organizationId, email),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
      return removal;
    } catch (error) {
      // Removed concurrently by another request; that request reports the removal.
      if (isConditionalCheckFailure(error)) return undefined;
      throw error;
    }
  }

  async listMembershipRemovals(organizationId: string): Promise<MembershipRemoval[]> {
    return this.queryPartition(`ORG#${organizationId}`, 'AUDIT#MEMBER_REMOVED#');
  }

  // Wallet

  async getWallet(organizationId: string): Promise<Wallet | undefined> {
    return toEntity(await this.get(tenancyKeys.wallet(organizationId)));
  }

  async creditWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet> {
    const result = await this.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: tenancyKeys.wallet(organizationId),
        // ADD treats a missing balance as zero, so the first top-up creates the wallet.
        UpdateExpression:
          'SET entity = :entity, organizationId = :organizationId, currency = if_not_exists(currency, :currency), updatedAt = :at ADD balanceMicros :amount',
        ExpressionAttributeValues: { ':entity': 'wallet', ':organizationId': organizationId, ':currency': 'USD', ':at': at, ':amount': amountMicros },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toEntity<Wallet>(result.Attributes)!;
  }

  async debitWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet> {
    try {
      const result = await this.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: tenancyKeys.wallet(organizationId),
          // Condition and subtraction are evaluated atomically on the one item: concurrent debits
          // serialize, and the one that would overdraw fails instead.
          UpdateExpression: 'SET balanceMicros = balanceMicros - :amount, updatedAt = :at',
          ConditionExpression: 'balanceMicros >= :amount',
          ExpressionAttributeValues: { ':amount': amountMicros, ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toEntity<Wallet>(result.Attributes)!;
    } catch (error) {
      if (isConditionalCheckFailure(error)) throw new InsufficientBalanceError(organizationId, amountMicros);
      throw error;
    }
  }

  // Pricing

  async putCountryPricing(pricing: CountryPricing): Promise<void> {
    await this.put({ ...tenancyKeys.countryPricing(pricing.countryCallingCode), entity: 'country-pricing', ...pricing });
  }

  async getCountryPricing(countryCallingCode: string): Promise<CountryPricing | undefined> {
    return toEntity(await this.get(tenancyKeys.countryPricing(countryCallingCode)));
  }

  async listCountryPricing(): Promise<CountryPricing[]> {
    return this.queryPartition('PRICING', 'COUNTRY#');
  }

  // Subscriptions

  async putSubscription(subscription: Subscription): Promise<void> {
    await this.put({ ...tenancyKeys.subscription(subscription.organizationId), entity: 'subscription', ...subscription });
  }

  async getSubscription(organizationId: string): Promise<Subscription | undefined> {
    return toEntity(await this.get(tenancyKeys.subscription(organizationId)));
  }

  // Plumbing

  private async get(key: { pk: string; sk: string }): Promise<Item | undefined> {
    const result = await this.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return result.Item;
  }

  private async put(item: Item, conditionExpression?: string): Promise<void> {
    await this.send(new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: conditionExpression }));
  }

  private async queryPartition<T>(pk: string, sortKeyPrefix: string): Promise<T[]> {
    return this.queryAll<T>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': sortKeyPrefix },
      ConsistentRead: true,
    });
  }

  private async queryAll<T>(input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
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
  private send(command: GetCommand): Promise<GetCommandOutput>;
  private send(command: PutCommand): Promise<PutCommandOutput>;
  private send(command: UpdateCommand): Promise<UpdateCommandOutput>;
  private send(command: DeleteCommand): Promise<DeleteCommandOutput>;
  private send(command: QueryCommand): Promise<QueryCommandOutput>;
  private async send(command: GetCommand | PutCommand | UpdateCommand | DeleteCommand | QueryCommand): Promise<unknown> {
    try {
      // The document client's send is overloaded per command; the union above is what this class uses.
      return await this.client.send(command as GetCommand);
    } catch (error) {
      throw storeFault(error, TenancyStoreUnavailableError, 'Tenancy store');
    }
  }
}
