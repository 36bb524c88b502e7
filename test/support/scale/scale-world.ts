/**
 * The simulated platform: the real chunk worker (functions/chunk-worker's record handler and
 * shared/broadcast/chunk-worker: job control, the account's turn, the pacer's slots, lanes, claims,
 * outcomes, settle) on the in-memory port fakes, under virtual time, wired to the models of SQS,
 * the Lambda event source, Meta, its webhooks with the delivery-events consumer, and DynamoDB.
 */
import type { Context, SQSRecord } from 'aws-lambda';
import { encodeOutboundMessage, type OutboundMessage } from '../../../shared/broadcast/chunk-message';
import type { ProcessChunkDependencies } from '../../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import type { OutboundQueue, SenderAccount } from '../../../shared/broadcast/ports';
import { InboxSuppressionList } from '../../../shared/module-bridges/inbox-opt-outs';
import type { CloudApiClient } from '../../../shared/sending/ports';
import { handleChunkRecord } from '../../../functions/chunk-worker/handle-chunk-record';
import { InMemorySendPacer, InMemorySenderDirectory, InMemoryTemplateStates } from '../broadcast-fakes';
import { IndexedBroadcastRepository } from './indexed-broadcast-repository';
import { InMemoryOptOutRepository } from '../in-memory-opt-out-repository';
import { DynamoModel, meteredStore } from './dynamo-model';
import { LambdaEventSourceModel, type BatchHandler, type EventSourceSettings } from './lambda-event-source-model';
import { MetaModel } from './meta-model';
import type { ScaleSettings } from './scale-settings';
import { logNormal, randomStreams } from './seeded-random';
import { SqsModel } from './sqs-model';
import { VirtualScheduler } from './virtual-scheduler';
import { WebhookModel, type WebhookPost } from './webhook-model';

export const SIMULATION_START = '2026-12-01T09:00:00.000Z';

/** Organization `i`'s one business account: number `pn_<i>`, at the scenario's tier rate. */
export function accountOf(index: number, rate: number): SenderAccount {
  return {
    organizationId: `org_${index}`,
    phoneNumber: `9198${String(index).padStart(8, '0')}`,
    phoneNumberId: `pn_${index}`,
    wabaId: `waba_${index}`,
    accessToken: `token-${index}`,
    messagesPerSecond: rate,
    businessId: `biz_${index}`,
  };
}

const notSimulated = async (): Promise<never> => {
  throw new Error('not part of the scale simulation');
};

export class ScaleWorld {
  readonly time = new VirtualScheduler(new Date(SIMULATION_START).getTime());
  readonly streams;
  readonly dynamo: DynamoModel;
  readonly store = new IndexedBroadcastRepository();
  readonly meta: MetaModel;
  readonly outbound: SqsModel<string>;
  readonly lane?: SqsModel<string>;
  readonly metaEvents: SqsModel<WebhookPost>;
  readonly webhooks: WebhookModel;
  readonly functions: Array<LambdaEventSourceModel<unknown>> = [];
  readonly accounts: SenderAccount[];

  constructor(readonly settings: ScaleSettings) {
    const { load, platform, models } = settings;
    this.streams = randomStreams(load.seed);
    this.accounts = Array.from({ length: load.organizations }, (_, index) => accountOf(index, load.accountRate));
    this.dynamo = new DynamoModel(this.time, models.dynamo, this.streams('dynamo'));
    const faulted = new Set(this.accounts.slice(0, load.faultedOrganizations).map((account) => account.phoneNumberId));
    const rates = new Map(this.accounts.map((account) => [account.phoneNumberId, account.messagesPerSecond]));
    this.meta = new MetaModel(this.time, { ...models.meta, faultedNumbers: faulted }, (number) => rates.get(number) ?? 80, this.streams('meta'));
    const queueSettings = { visibilityTimeoutMs: models.visibilityTimeoutMs, maxReceiveCount: 5, inFlightLimit: 120_000, fair: platform.fairQueues };
    this.outbound = new SqsModel<string>(this.time, queueSettings);
    if (platform.singleLane) this.lane = new SqsModel<string>(this.time, queueSettings);
    this.metaEvents = new SqsModel<WebhookPost>(this.time, { ...queueSettings, visibilityTimeoutMs: 360_000 });
    this.webhooks = new WebhookModel(this.time, this.metaEvents, this.streams('webhooks'));
    this.meta.onTaken = (number, key) => this.webhooks.taken(number, key);
    const dependencies = this.workerDependencies();
    this.addFunction(this.outbound, platform.chunkWorker, this.chunkWorkerHandler(dependencies, 'outbound', this.outbound));
    if (this.lane && platform.singleLane) this.addFunction(this.lane, platform.singleLane, this.chunkWorkerHandler(dependencies, 'lane', this.lane));
    this.addFunction(this.metaEvents, platform.deliveryEvents, this.webhooks.handler(this.time, this.dynamo));
  }

  private addFunction<T>(queue: SqsModel<T>, settings: EventSourceSettings, handler: BatchHandler<T>): void {
    const model = new LambdaEventSourceModel(this.time, queue, settings, handler, this.streams(`lambda-${settings.name}`));
    this.functions.push(model as unknown as LambdaEventSourceModel<unknown>);
  }

  /** The chunk worker's ports: in-memory fakes behind the DynamoDB model, Meta's model, the queue model. */
  private workerDependencies(): ProcessChunkDependencies {
    const upstream: CloudApiClient = {
      listTemplates: notSimulated,
      listPhoneNumbers: notSimulated,
      messagingLimitOf: notSimulated,
      marketingMessagesOnboardingOf: notSimulated,
      sendMessage: (number, body, call) => this.meta.sendMessage(number, body, call),
    };
    return {
      senders: new InMemorySenderDirectory(this.accounts),
      broadcasts: meteredStore(this.store, this.dynamo),
      upstream,
      pacer: meteredStore(new InMemorySendPacer(), this.dynamo),
      queue: this.outboundQueue(),
      clock: this.time,
      sleep: this.time.sleep,
      random: this.streams('worker'),
      templateStates: new InMemoryTemplateStates(),
      optOuts: new InboxSuppressionList(new InMemoryOptOutRepository()),
      settings: this.settings.platform.worker,
    };
  }

  /**
   * The OutboundQueue adapter on the queue models: a send takes an SQS round trip; a one-recipient
   * message goes to the single-message lane when there is one; the organization is its group.
   */
  outboundQueue(): OutboundQueue {
    const sqsRandom = this.streams('sqs');
    return {
      enqueue: async (messages, options = {}) => {
        await this.time.sleep(logNormal(sqsRandom, 8, 0.3));
        for (const message of messages) this.queueFor(message).send([encodeOutboundMessage(message)], message.organizationId, options.delaySeconds ?? 0);
      },
      deferRedelivery: async (receiptHandle, delaySeconds) => {
        const [queueName, handle] = receiptHandle.split('|');
        (queueName === 'lane' ? this.lane! : this.outbound).changeVisibility(handle!, delaySeconds);
      },
    };
  }

  queueFor(message: Pick<OutboundMessage, 'recipients'>): SqsModel<string> {
    return this.lane && message.recipients.length === 1 ? this.lane : this.outbound;
  }

  /** The chunk worker's Lambda: each SQS record through the real record handler (decode, process, early redelivery, abandon). */
  private chunkWorkerHandler(dependencies: ProcessChunkDependencies, queueName: 'outbound' | 'lane', queue: SqsModel<string>): BatchHandler<string> {
    return async (messages, invocation) => {
      const failedIds: number[] = [];
      for (const message of messages) {
        const record = {
          body: message.body,
          receiptHandle: `${queueName}|${message.id}:${queue.receiptOf(message.id) ?? 0}`,
          attributes: { ApproximateReceiveCount: String(message.receiveCount) },
        } as unknown as SQSRecord;
        const context = { getRemainingTimeInMillis: () => invocation.remainingTimeMs() } as unknown as Context;
        await handleChunkRecord(dependencies, record, context).catch(() => failedIds.push(message.id));
      }
      return { failedIds };
    };
  }
}
