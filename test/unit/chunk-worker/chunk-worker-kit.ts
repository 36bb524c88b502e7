/**
 * The chunk worker's test kit: the worker on in-memory ports and virtual time (test/support/broadcast-fakes.ts).
 */
import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import type { ChunkWorkerSettings, ProcessChunkDependencies } from '../../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import { processOutboundChunk } from '../../../shared/broadcast/chunk-worker/process-outbound-chunk';
import type { LedgerEntry } from '../../../shared/broadcast/ports';
import { InboxSuppressionList } from '../../../shared/module-bridges/inbox-opt-outs';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';
import {
  InMemoryBroadcastRepository,
  InMemorySendPacer,
  InMemorySenderDirectory,
  InMemoryTemplateStates,
  RecordingOutboundQueue,
  SENDER,
  ScriptedCloudApi,
  VirtualTime,
  jobOf,
} from '../../support/broadcast-fakes';

export const START = '2026-03-01T09:00:00.000Z';
export const startMs = new Date(START).getTime();

export const baseSettings: ChunkWorkerSettings = {
  maxInFlight: 4,
  maxAttempts: 3,
  backoff: { baseMs: 100, maxMs: 1000 },
  rateLimitHoldMs: 1000,
  safetyMarginMs: 1000,
  outcomeBatchSize: 25,
  flushIntervalMs: 250,
  pauseRecheckSeconds: 60,
  templatePauseTimeoutMs: 3 * 3_600_000,
};

export function setup(options: { rate?: number; settings?: Partial<ChunkWorkerSettings>; jobChunks?: number[] } = {}) {
  const time = new VirtualTime(START);
  const upstream = new ScriptedCloudApi(time);
  const broadcasts = new InMemoryBroadcastRepository();
  const pacer = new InMemorySendPacer();
  const queue = new RecordingOutboundQueue();
  const senders = new InMemorySenderDirectory([{ ...SENDER, messagesPerSecond: options.rate ?? 20 }]);
  const random = jest.fn(() => 0.5);
  const templateStates = new InMemoryTemplateStates();
  const optOuts = new InMemoryOptOutRepository();
  const dependencies: ProcessChunkDependencies = {
    senders,
    broadcasts,
    upstream,
    pacer,
    queue,
    clock: time,
    sleep: time.sleep,
    random,
    templateStates,
    optOuts: new InboxSuppressionList(optOuts),
    settings: { ...baseSettings, ...options.settings },
  };
  let deadline = startMs + 120_000;
  const invocation = { remainingTimeMs: () => deadline - time.nowMs() };
  const createJob = async (message: TemplateChunkMessage, chunkSizes = options.jobChunks ?? [message.recipients.length]) => {
    await broadcasts.createJob(jobOf(message, chunkSizes, START), chunkSizes);
  };
  const run = (message: TemplateChunkMessage) => time.run(() => processOutboundChunk(dependencies, message, invocation));
  return {
    time,
    upstream,
    broadcasts,
    pacer,
    queue,
    random,
    templateStates,
    optOuts,
    dependencies,
    createJob,
    run,
    setDeadline: (ms: number) => (deadline = ms),
  };
}

export const statusCounts = (entries: LedgerEntry[]) =>
  entries.reduce<Record<string, number>>((counts, entry) => ({ ...counts, [entry.status]: (counts[entry.status] ?? 0) + 1 }), {});

/** Largest number of sends in any window of `windowMs` starting at a send. */
export const maxInWindow = (times: number[], windowMs: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let start = 0, end = 0; start < sorted.length; start += 1) {
    while (end < sorted.length && sorted[end]! < sorted[start]! + windowMs) end += 1;
    best = Math.max(best, end - start);
  }
  return best;
};

export type ChunkWorkerKit = ReturnType<typeof setup>;
