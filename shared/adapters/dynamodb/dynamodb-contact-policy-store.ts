/**
 * ContactPolicyStore over the tenancy table: one item per organization, `ORG#<org>` / `CONTACT_POLICY`
 * (tenancy-table.ts, docs/DATA-MODEL.md). A policy replaces the last one whole (a put); removing
 * it deletes the item. A stored item that does not read as a policy is an error, never a wrong cap.
 */
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { ContactPolicy, ContactPolicyStore } from '../../send-rules/ports';
import { storedContactPolicySchema } from '../../send-rules/contact-policy.schema';
import { classifyStoreFaults } from './dynamodb-errors';
import { tenancyKeys } from './tenancy-table';

export class MalformedContactPolicyError extends Error {
  override readonly name = 'MalformedContactPolicyError';
}

/**
 * @example
 * const policies = new DynamoDbContactPolicyStore(documentClient, 'tenancy');
 * await policies.setPolicy('org_1', { marketingPerPerson: 2, perDays: 7, updatedAt: '2026-12-01T10:00:00.000Z' });
 * await policies.policyOf('org_1'); // { marketingPerPerson: 2, perDays: 7, updatedAt: '…' }
 */
export class DynamoDbContactPolicyStore implements ContactPolicyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.client);
  }

  async policyOf(organizationId: string): Promise<ContactPolicy | undefined> {
    const { Item: item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: tenancyKeys.contactPolicy(organizationId), ConsistentRead: true }),
    );
    if (!item) return undefined;
    const { pk: _pk, sk: _sk, entity: _entity, ...stored } = item;
    const parsed = v.safeParse(storedContactPolicySchema, stored);
    if (!parsed.success) throw new MalformedContactPolicyError(`contact policy of ${organizationId} is malformed: ${parsed.issues[0].message}`);
    return parsed.output;
  }

  async setPolicy(organizationId: string, policy: ContactPolicy | undefined): Promise<void> {
    const key = tenancyKeys.contactPolicy(organizationId);
    if (policy === undefined) {
      await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: key }));
      return;
    }
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: { ...key, entity: 'CONTACT_POLICY', ...policy } }));
  }
}
