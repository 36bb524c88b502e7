/**
 * Business accounts, phone numbers and the global identifier claims in the tenancy table (keys:
 * tenancy-table.ts). A phone number's claims carry the whole number, so the global look-ups by
 * digits and by id are one read each.
 */
import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BusinessAccountNotFoundError, IdentifierClaimedByAnotherOrganizationError, type ClaimedIdentifierKind } from '../../tenancy/errors';
import type { BusinessAccount, MarketingMessagesSetting, PhoneNumber } from '../../tenancy/tenancy-entities';
import type { AccountDirectory, IdentifierClaim } from '../../tenancy/tenancy-stores';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { TenancyTable, tenancyKeys, toEntity } from './tenancy-table';

export class DynamoDbAccountDirectory implements AccountDirectory {
  private readonly table: TenancyTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.table = new TenancyTable(client, tableName);
  }

  // Claims

  async claimIdentifier(claim: IdentifierClaim): Promise<{ newlyClaimed: boolean }> {
    try {
      const result = await this.table.send(
        new PutCommand({
          TableName: this.table.tableName,
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
      await this.table.send(
        new DeleteCommand({
          TableName: this.table.tableName,
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
    return toEntity(await this.table.get(tenancyKeys.claim(kind, value)));
  }

  // Business accounts and phone numbers

  async putBusinessAccount(account: BusinessAccount): Promise<void> {
    await this.table.put({ ...tenancyKeys.businessAccount(account.organizationId, account.wabaId), entity: 'business-account', ...account });
  }

  async getBusinessAccount(organizationId: string, wabaId: string): Promise<BusinessAccount | undefined> {
    return toEntity(await this.table.get(tenancyKeys.businessAccount(organizationId, wabaId)));
  }

  async listBusinessAccounts(organizationId: string): Promise<BusinessAccount[]> {
    return this.table.queryPartition(`ORG#${organizationId}`, 'WABA#');
  }

  async markBusinessAccountNeedsAuthorization(organizationId: string, wabaId: string, failedEncryptedAccessToken: string, at: string): Promise<void> {
    try {
      await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
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

  async setBusinessAccountMarketingMessages(
    organizationId: string,
    wabaId: string,
    change: { marketingMessages: MarketingMessagesSetting; updatedAt: string },
  ): Promise<BusinessAccount> {
    try {
      const result = await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: tenancyKeys.businessAccount(organizationId, wabaId),
          // The same value again is harmless, so an SDK retry of an applied write needs no token.
          UpdateExpression: 'SET marketingMessages = :setting, updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':setting': change.marketingMessages, ':at': change.updatedAt },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toEntity<BusinessAccount>(result.Attributes)!;
    } catch (error) {
      if (isConditionalCheckFailure(error)) throw new BusinessAccountNotFoundError(organizationId, wabaId);
      throw error;
    }
  }

  async putPhoneNumber(phoneNumber: PhoneNumber): Promise<void> {
    await this.table.put({ ...tenancyKeys.phoneNumber(phoneNumber.organizationId, phoneNumber.digits), entity: 'phone-number', ...phoneNumber });
  }

  async listPhoneNumbers(organizationId: string): Promise<PhoneNumber[]> {
    return this.table.queryPartition(`ORG#${organizationId}`, 'PHONE#');
  }

  async findPhoneNumberByDigits(digits: string): Promise<PhoneNumber | undefined> {
    return (await this.getIdentifierClaim('phone-number-digits', digits))?.phoneNumber;
  }

  async findPhoneNumberById(phoneNumberId: string): Promise<PhoneNumber | undefined> {
    return (await this.getIdentifierClaim('phone-number-id', phoneNumberId))?.phoneNumber;
  }
}
