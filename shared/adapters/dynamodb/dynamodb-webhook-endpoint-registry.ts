/**
 * Customer webhook endpoints in the tenancy table: one item per endpoint, `ORG#<orgId>` /
 * `WEBHOOK#<endpointId>` (keys: tenancyKeys). The signing secret is stored only encrypted with the
 * token cipher, bound to {organizationId, webhookEndpointId}: a ciphertext copied onto another
 * endpoint or organization does not decrypt. Every read is scoped by the organization's partition,
 * so another organization's endpoint id is simply absent.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { WebhookEndpointNotFoundError } from '../../customer-events/errors';
import type { SubscribableEventType, WebhookEndpoint, WebhookEndpointRegistry } from '../../customer-events/ports';
import type { EncryptionContext, TokenCipher } from '../../crypto/token-cipher';
import type { Clock } from '../../ports/clock';
import { DecryptedTokenCache } from '../../tenancy/decrypted-token-cache';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';
import { tenancyKeys } from './tenancy-table';

type Item = Record<string, unknown>;

/** The encryption context of an endpoint's secret (KMS EncryptionContext / AES additional data): its purpose and owner. */
export const webhookSecretContext = (organizationId: string, webhookEndpointId: string): EncryptionContext => ({
  purpose: 'webhook-secret',
  organizationId,
  webhookEndpointId,
});

function toEndpoint(item: Item): WebhookEndpoint {
  return {
    id: item.id as string,
    organizationId: item.organizationId as string,
    url: item.url as string,
    events: item.events as SubscribableEventType[],
    state: item.state as WebhookEndpoint['state'],
    createdAt: item.createdAt as string,
    ...(typeof item.failingSince === 'string' ? { failingSince: item.failingSince } : {}),
  };
}

export class DynamoDbWebhookEndpointRegistry implements WebhookEndpointRegistry {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly cipher: TokenCipher,
    private readonly clock: Clock,
    /** Decrypted secrets for 5 minutes (keyed by organization, endpoint and ciphertext): one KMS call per endpoint per warm container. */
    private readonly decryptedSecrets = new DecryptedTokenCache(),
  ) {
    classifyStoreFaults(this.client);
  }

  async create(endpoint: WebhookEndpoint, secret: string): Promise<void> {
    const encryptedSecret = await this.cipher.encrypt(secret, webhookSecretContext(endpoint.organizationId, endpoint.id));
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...tenancyKeys.webhookEndpoint(endpoint.organizationId, endpoint.id), entity: 'webhook-endpoint', ...endpoint, encryptedSecret },
        // Ids are generated; a collision must fail rather than replace another endpoint's secret.
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async list(organizationId: string): Promise<WebhookEndpoint[]> {
    const endpoints: WebhookEndpoint[] = [];
    let exclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': tenancyKeys.organization(organizationId).pk, ':prefix': tenancyKeys.webhookEndpointPrefix },
          ConsistentRead: true,
          ExclusiveStartKey: exclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) endpoints.push(toEndpoint(item));
      exclusiveStartKey = page.LastEvaluatedKey;
    } while (exclusiveStartKey);
    return endpoints;
  }

  async get(organizationId: string, endpointId: string): Promise<WebhookEndpoint | undefined> {
    const item = await this.item(organizationId, endpointId);
    return item ? toEndpoint(item) : undefined;
  }

  async delete(organizationId: string, endpointId: string): Promise<boolean> {
    const result = await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: tenancyKeys.webhookEndpoint(organizationId, endpointId), ReturnValues: 'ALL_OLD' }),
    );
    return result.Attributes !== undefined;
  }

  async subscribersOf(organizationId: string, type: SubscribableEventType): Promise<WebhookEndpoint[]> {
    return (await this.list(organizationId)).filter((endpoint) => endpoint.events.includes(type));
  }

  /** Reads the item (the endpoint may have been deleted since it was queued), then decrypts through the cache. */
  async secretOf(endpoint: WebhookEndpoint): Promise<string> {
    const item = await this.item(endpoint.organizationId, endpoint.id);
    if (!item || typeof item.encryptedSecret !== 'string') throw new WebhookEndpointNotFoundError();
    const ciphertext = item.encryptedSecret;
    const now = this.clock.now();
    const cached = this.decryptedSecrets.get(endpoint.organizationId, endpoint.id, ciphertext, now);
    if (cached !== undefined) return cached;
    const secret = await this.cipher.decrypt(ciphertext, webhookSecretContext(endpoint.organizationId, endpoint.id));
    this.decryptedSecrets.set(endpoint.organizationId, endpoint.id, ciphertext, secret, now);
    return secret;
  }

  async markFailing(organizationId: string, endpointId: string, since: Date): Promise<void> {
    // if_not_exists keeps the start of the failure when later deliveries give up too.
    await this.updateExisting(organizationId, endpointId, 'SET #state = :state, failingSince = if_not_exists(failingSince, :since)', {
      ':state': 'FAILING',
      ':since': since.toISOString(),
    });
  }

  async markActive(organizationId: string, endpointId: string): Promise<void> {
    await this.updateExisting(organizationId, endpointId, 'SET #state = :state REMOVE failingSince', { ':state': 'ACTIVE' });
  }

  /** A deleted endpoint stays deleted: a late delivery outcome must not re-create a key-less item. */
  private async updateExisting(organizationId: string, endpointId: string, expression: string, values: Record<string, unknown>): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: tenancyKeys.webhookEndpoint(organizationId, endpointId),
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: values,
        }),
      );
    } catch (error) {
      if (isConditionalCheckFailure(error)) return;
      throw error;
    }
  }

  private async item(organizationId: string, endpointId: string): Promise<Item | undefined> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: tenancyKeys.webhookEndpoint(organizationId, endpointId), ConsistentRead: true }),
    );
    return result.Item;
  }
}
