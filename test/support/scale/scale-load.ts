/**
 * The scenario's load on the simulated platform, as the accept paths would make it (the broadcast
 * accepts are modelled: a fixed time, then the job written through the store and its chunk
 * messages, made by the real job-fan-out.ts templateChunkOf, queued): draining accounts accept a
 * broadcast each time the previous one would have been sent at their tier (so each is offered
 * exactly its rate), campaigns are launched and expanded by the real code (scale-campaigns.ts),
 * single messages arrive as a Poisson process over all organizations.
 */
import type { ChunkRecipient, TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import type { OutboundQueue, SenderAccount } from '../../../shared/broadcast/ports';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import { templateChunkOf } from '../../../shared/broadcast/job-fan-out';
import type { ScaleWorld } from './scale-world';
import { exponentialGapMs } from './seeded-random';

const CHUNK_SIZE = 1_000;

type TemplateJob = Extract<BroadcastJob, { kind: 'template' }>;

/** A template job as the accept path records it (one UTILITY template for every job of the simulation). */
function jobFor(account: SenderAccount, jobId: string, chunkSizes: readonly number[], now: Date): TemplateJob {
  return {
    kind: 'template',
    jobId,
    organizationId: account.organizationId,
    broadcastName: jobId,
    exposed: true,
    wabaId: account.wabaId,
    phoneNumberId: account.phoneNumberId,
    fromPhoneNumber: account.phoneNumber,
    template: { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' },
    totalRecipients: chunkSizes.reduce((sum, size) => sum + size, 0),
    totalChunks: chunkSizes.length,
    chunkSize: CHUNK_SIZE,
    createdAt: now.toISOString(),
  };
}

/** What the load did: every job accepted (with its size) and each single message's accept time. */
export interface LoadRecord {
  jobs: Map<string, { recipients: number; organizationId: string }>;
  singleAcceptedAt: Map<string, number>;
}

export class ScaleLoadGenerator {
  readonly record: LoadRecord = { jobs: new Map(), singleAcceptedAt: new Map() };
  /** Recipient lists by chunk index and size, shared by every job's messages (the worker never changes them): memory stays flat. */
  private readonly recipientLists = new Map<string, ChunkRecipient[]>();
  private readonly queue: OutboundQueue;
  private singles = 0;

  constructor(private readonly world: ScaleWorld) {
    this.queue = world.outboundQueue();
    world.meta.tracked = (callbackData) => this.record.singleAcceptedAt.has(callbackData);
  }

  /** Schedules the whole scenario's arrivals within `arrivalSeconds`. */
  start(): void {
    const { load } = this.world.settings;
    const endMs = this.world.time.nowMs() + load.arrivalSeconds * 1000;
    const offsets = this.world.streams('broadcast-offsets');
    for (let index = 0; index < load.drainingAccounts; index += 1) this.drain(this.world.accounts[index]!, offsets() * 5_000, endMs);
    for (let index = 0; index < load.campaigns; index += 1) this.campaign(this.world.accounts[load.drainingAccounts + index]!, index);
    this.singleArrivals(endMs);
  }

  /** Back-to-back broadcasts: the next one is accepted when the previous would have been sent at the tier's rate. */
  private drain(account: SenderAccount, firstMs: number, endMs: number): void {
    const { broadcastRecipients } = this.world.settings.load;
    const everyMs = (broadcastRecipients * 1000) / account.messagesPerSecond;
    let count = 0;
    const next = () => {
      if (this.world.time.nowMs() >= endMs) return;
      void this.accept(account, `b${account.organizationId.slice(4)}_${(count += 1)}`, broadcastRecipients, broadcastRecipients);
      this.world.time.at(everyMs, next);
    };
    this.world.time.at(firstMs, next);
  }

  /** A campaign: created and launched through the real use case; the real expander queues its chunks (scale-campaigns.ts). */
  private campaign(account: SenderAccount, index: number): void {
    const { campaignMembers } = this.world.settings.load;
    const record = this.record.jobs;
    void this.world.campaigns.launch(account, `cmp_${index}`, this.world.settings.models.acceptMs).then((jobId) => {
      record.set(jobId, { recipients: campaignMembers, organizationId: account.organizationId });
    });
  }

  private singleArrivals(endMs: number): void {
    const { singlesPerSecond, organizations } = this.world.settings.load;
    if (singlesPerSecond <= 0) return;
    const gaps = this.world.streams('single-arrivals');
    const next = () => {
      if (this.world.time.nowMs() >= endMs) return;
      const account = this.world.accounts[Math.floor(gaps() * organizations)]!;
      const jobId = `s${(this.singles += 1)}`;
      this.record.singleAcceptedAt.set(callbackDataOf({ kind: 'ledger', jobId, chunkIndex: 0, index: 0 }), this.world.time.nowMs());
      void this.accept(account, jobId, 1, 1);
      this.world.time.at(exponentialGapMs(gaps, singlesPerSecond), next);
    };
    this.world.time.at(exponentialGapMs(gaps, singlesPerSecond), next);
  }

  /** The accept path, modelled: its time, the job through the (metered) store, then `queuedNow` recipients' chunk messages queued. */
  private async accept(account: SenderAccount, jobId: string, recipients: number, queuedNow: number): Promise<TemplateJob> {
    const sizes = Array.from({ length: Math.ceil(recipients / CHUNK_SIZE) }, (_, chunk) => Math.min(CHUNK_SIZE, recipients - chunk * CHUNK_SIZE));
    this.record.jobs.set(jobId, { recipients, organizationId: account.organizationId });
    await this.world.time.sleep(this.world.settings.models.acceptMs);
    const job = jobFor(account, jobId, sizes, this.world.time.now());
    // The job item and the chunk items written now (a campaign's chunks are appended page by page as its expander runs).
    await this.world.dynamo.call([{ key: `JOB#${jobId}`, units: 1 + Math.ceil(queuedNow / CHUNK_SIZE) }]);
    await this.world.store.createJob(job, sizes);
    const messages: TemplateChunkMessage[] = [];
    for (let chunk = 0; chunk * CHUNK_SIZE < queuedNow; chunk += 1) messages.push(this.chunkOf(job, chunk, sizes[chunk]!));
    if (messages.length > 0) await this.queue.enqueue(messages);
    return job;
  }

  /** A chunk message as the accept's fan-out and the expander make it (job-fan-out.ts's templateChunkOf), with the shared recipients. */
  private chunkOf(job: TemplateJob, chunkIndex: number, size: number): TemplateChunkMessage {
    return { ...templateChunkOf(job, chunkIndex), recipients: this.recipientsOf(chunkIndex, size) };
  }

  private recipientsOf(chunkIndex: number, size: number): ChunkRecipient[] {
    const key = `${chunkIndex}:${size}`;
    let list = this.recipientLists.get(key);
    if (!list) {
      list = Array.from({ length: size }, (_, offset) => ({
        index: chunkIndex * CHUNK_SIZE + offset,
        to: `9198${String(chunkIndex * CHUNK_SIZE + offset).padStart(8, '0')}`,
        parameters: ['Ada'],
      }));
      this.recipientLists.set(key, list);
    }
    return list;
  }
}
