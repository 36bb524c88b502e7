/**
 * The simulated platform: the real chunk worker (functions/chunk-worker's record handler and
 * shared/broadcast/chunk-worker: job control, the account's turn, the pacer's slots, lanes, claims,
 * outcomes, settle) for the chunk queue and, in the `lanes` variant, the single-message queue (the
 * same consumer, batches of 10 records processed concurrently as Powertools' BatchProcessor does),
 * the real campaign launch and expander (scale-campaigns.ts), the real delivery-events use case
 * (scale-delivery-events.ts) and the real customer-events dispatcher (customer-events-model.ts), on
 * the in-memory port fakes, under virtual time, wired to the models of SQS, the Lambda event source,
 * Meta, its webhooks, and DynamoDB. Which queue a job's messages take is decided in one
 * place: the platform's own rule, shared/broadcast/outbound-lanes.ts's `laneOfJob`.
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
import { CustomerEventsModel } from './customer-events-model';
import { ScaleCampaigns } from './scale-campaigns';
import { deliveryEventsHandler } from './scale-delivery-events';
import { laneOfJob } from '../../../shared/broadcast/outbound-lanes';
import type { CustomerEventDelivery } from '../../../shared/customer-events/delivery-message';

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
  readonly customerEventQueue: SqsModel<CustomerEventDelivery>;
  readonly expansions: SqsModel<string>;
  readonly customerEvents: CustomerEventsModel;
  readonly campaigns: ScaleCampaigns;
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
    this.webhooks = new WebhookModel(this.time, this.metaEvents, this.streams('webhooks'), (number) => ({
      organizationId: `org_${number.slice(3)}`,
      wabaId: `waba_${number.slice(3)}`,
    }));
    this.meta.onTaken = (message) => this.webhooks.taken(message);
    this.customerEventQueue = new SqsModel<CustomerEventDelivery>(this.time, { ...queueSettings, visibilityTimeoutMs: 6 * platform.customerEvents.timeoutMs });
    this.customerEvents = new CustomerEventsModel(
      this.time,
      this.customerEventQueue,
      load.customerEvents,
      load.organizations,
      load.drainingAccounts + load.campaigns,
      this.streams('customer-events'),
    );
    this.expansions = new SqsModel<string>(this.time, { ...queueSettings, visibilityTimeoutMs: 6 * platform.campaignExpander.timeoutMs });
    const campaignAccounts = this.accounts.slice(load.drainingAccounts, load.drainingAccounts + load.campaigns);
    this.campaigns = new ScaleCampaigns({
      time: this.time,
      dynamo: this.dynamo,
      store: this.store,
      queue: this.outboundQueue(),
      expansions: this.expansions,
      random: this.streams('campaigns'),
      accounts: campaignAccounts,
      members: load.campaignMembers,
    });
    const dependencies = this.workerDependencies();
    this.addFunction(this.outbound, platform.chunkWorker, this.chunkWorkerHandler(dependencies, 'outbound', this.outbound));
    if (this.lane && platform.singleLane) this.addFunction(this.lane, platform.singleLane, this.chunkWorkerHandler(dependencies, 'lane', this.lane));
    const delivery = deliveryEventsHandler({
      time: this.time,
      dynamo: this.dynamo,
      store: this.store,
      accounts: this.accounts,
      events: this.customerEvents.publisher,
      applied: (count) => (this.webhooks.applied += count),
    });
    this.addFunction(this.metaEvents, platform.deliveryEvents, delivery);
    // Its own DynamoDB model (the rateLimits table, own random stream): the sending side's figures do not move with the subscribers.
    const rateLimitsTable = new DynamoModel(this.time, models.dynamo, this.streams('dynamo-customer-events'));
    this.addFunction(this.customerEventQueue, platform.customerEvents, this.customerEvents.handler(rateLimitsTable));
    this.addFunction(this.expansions, platform.campaignExpander, this.campaigns.expanderHandler());
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

  /** The queue of `message`'s job's lane (the job is in the store before its first message is queued). */
  queueFor(message: Pick<OutboundMessage, 'jobId'>): SqsModel<string> {
    if (!this.lane) return this.outbound;
    const job = this.store.jobs.get(message.jobId);
    return job && laneOfJob(job) === 'single' ? this.lane : this.outbound;
  }

  /**
   * The chunk worker's Lambda: each SQS record through the real record handler (decode, process,
   * early redelivery, abandon), the batch's records concurrently (Powertools' BatchProcessor's default).
   */
  private chunkWorkerHandler(dependencies: ProcessChunkDependencies, queueName: 'outbound' | 'lane', queue: SqsModel<string>): BatchHandler<string> {
    return async (messages, invocation) => {
      const failedIds: number[] = [];
      const context = { getRemainingTimeInMillis: () => invocation.remainingTimeMs() } as unknown as Context;
      await Promise.all(
        messages.map((message) => {
          const record = {
            body: message.body,
            receiptHandle: `${queueName}|${message.id}:${queue.receiptOf(message.id) ?? 0}`,
            attributes: { ApproximateReceiveCount: String(message.receiveCount) },
          } as unknown as SQSRecord;
          return handleChunkRecord(dependencies, record, context).catch(() => failedIds.push(message.id));
        }),
      );
      // In the batch's order whatever order the records ended in (determinism of what follows).
      return { failedIds: failedIds.sort((a, b) => a - b) };
    };
  }
}
