/**
 * Campaigns in the messaging table (keys and item shape: campaign-items.ts): one item per campaign,
 * listed newest first through gsi1 as jobs are; the launch and each expansion checkpoint are
 * single-item conditional writes (dynalite has no transactions, and none is needed).
 */
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Campaign, ExpansionProgress } from '../../campaigns/campaign';
import { InvalidCampaignCursorError } from '../../campaigns/errors';
import type { CampaignListQuery, CampaignStore } from '../../campaigns/ports';
import {
  campaignExpiresAt,
  campaignItem,
  campaignKeys,
  decodeCampaign,
  decodeCampaignCursor,
  encodeCampaignCursor,
  organizationCampaignsStartKey,
} from './campaign-items';
import { classifyStoreFaults } from './dynamodb-errors';
import { isConditionFailure, putIfAbsent, type MessagingTable } from './messaging-table-requests';

type Launch = Parameters<CampaignStore['markLaunched']>[2];

export class DynamoDbCampaignStore implements CampaignStore {
  private readonly table: MessagingTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    classifyStoreFaults(client);
    this.table = { client, tableName };
  }

  async createCampaign(campaign: Campaign): Promise<void> {
    if (!(await putIfAbsent(this.table, campaignItem(campaign)))) throw new Error(`Campaign ${campaign.campaignId} exists`);
  }

  async getCampaign(organizationId: string, campaignId: string): Promise<Campaign | undefined> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.tableName, Key: campaignKeys.campaign(organizationId, campaignId), ConsistentRead: true }),
    );
    return result.Item ? decodeCampaign(result.Item) : undefined;
  }

  async listCampaigns(organizationId: string, query: CampaignListQuery): Promise<{ campaigns: Campaign[]; nextCursor?: string }> {
    const after = query.cursor === undefined ? undefined : decodeCampaignCursor(query.cursor);
    if (query.cursor !== undefined && after === undefined) throw new InvalidCampaignCursorError();
    const { gsi1pk } = campaignKeys.organizationCampaigns(organizationId, '');
    const campaigns: Campaign[] = [];
    let startKey = after ? organizationCampaignsStartKey(organizationId, after) : undefined;
    // A page of the index may hold fewer items than asked (1 MB per page): read on until `limit` or the end.
    do {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': gsi1pk },
          ScanIndexForward: false,
          Limit: query.limit - campaigns.length,
          ExclusiveStartKey: startKey,
        }),
      );
      campaigns.push(...(page.Items ?? []).map(decodeCampaign));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined && campaigns.length < query.limit);
    const last = campaigns.at(-1);
    return startKey !== undefined && last ? { campaigns, nextCursor: encodeCampaignCursor(last) } : { campaigns };
  }

  async markLaunched(
    organizationId: string,
    campaignId: string,
    launch: Launch,
  ): Promise<{ launched: true } | { launched: false; campaign: Campaign | undefined }> {
    const values: Record<string, unknown> = {
      ':launchedAt': launch.launchedAt,
      ':jobId': launch.jobId,
      ':expansion': launch.expansion,
      ':expiresAt': campaignExpiresAt(launch.launchedAt),
    };
    const sets = ['launchedAt = :launchedAt', 'jobId = :jobId', 'expansion = :expansion', 'updatedAt = :launchedAt', 'expiresAt = :expiresAt'];
    if (launch.launchRequestHash !== undefined) {
      values[':hash'] = launch.launchRequestHash;
      sets.push('launchRequestHash = :hash');
    }
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: campaignKeys.campaign(organizationId, campaignId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(launchedAt) AND attribute_not_exists(cancelledAt)',
          ExpressionAttributeValues: values,
        }),
      );
      return { launched: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return { launched: false, campaign: await this.getCampaign(organizationId, campaignId) };
    }
  }

  async cancelUnlaunched(
    organizationId: string,
    campaignId: string,
    at: Date,
  ): Promise<{ cancelled: true; cancelledAt: string } | { cancelled: false; campaign: Campaign | undefined }> {
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: campaignKeys.campaign(organizationId, campaignId),
          // The first cancel's time stays: a repeat changes nothing.
          UpdateExpression: 'SET cancelledAt = if_not_exists(cancelledAt, :at), updatedAt = if_not_exists(cancelledAt, :at)',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(launchedAt)',
          ExpressionAttributeValues: { ':at': at.toISOString() },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return { cancelled: true, cancelledAt: String(result.Attributes?.cancelledAt ?? at.toISOString()) };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return { cancelled: false, campaign: await this.getCampaign(organizationId, campaignId) };
    }
  }

  async saveExpansion(organizationId: string, campaignId: string, expansion: ExpansionProgress, expectedVersion: number): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: campaignKeys.campaign(organizationId, campaignId),
          UpdateExpression: 'SET expansion = :expansion',
          ConditionExpression: 'expansion.version = :expected',
          ExpressionAttributeValues: { ':expansion': expansion, ':expected': expectedVersion },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return false;
    }
  }
}
