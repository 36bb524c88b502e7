/**
 * AWS cost of one 10,000-recipient template broadcast, from counted requests.
 *
 * The counts come from the SDK middleware in lib/request-counter.ts during the accept and drain
 * benchmarks (what the code really sends), converted to a 10,000-recipient job:
 *  - the 1,000 msg/s drain runs a 10,000-recipient job, so its counts are used as they are;
 *  - the 80 msg/s drain runs 2,000 recipients (2 chunks); its per-recipient and per-chunk requests
 *    scale linearly to 10,000 (10 chunks), the job-level ones (auth, rate limit, job item) do not
 *    matter at this scale and are scaled too (an overestimate of a few units).
 * Lambda time is modelled, not taken from the local run (where one CPU thread runs every
 * "Lambda" and the emulators, so a local drain is slower than AWS would be): all chunks of a job
 * run at once (maxConcurrency 20 >= 10 chunks) and share the account's pace, so each chunk
 * invocation lasts the whole job, recipients / rate seconds, and an invocation stops taking
 * recipients (timeout - safety margin) = 105 s in, continuing in a new message.
 *
 * Prices: us-east-1 list prices at the time of writing (2024), on-demand, no free tier.
 */
import { chunkWorker, functions } from '../runtime-contract/resource-definitions';
import type { RequestCounts } from './lib/request-counter';

export const prices = {
  apiGatewayRestPerMillion: 3.5,
  lambdaArmPerGbSecond: 0.0000133334,
  lambdaPerMillionRequests: 0.2,
  sqsPerMillionRequests: 0.4,
  dynamoDbPerMillionWriteUnits: 0.625,
  dynamoDbPerMillionReadUnits: 0.125,
} as const;

export interface CostLine {
  item: string;
  quantity: number;
  unit: string;
  usd: number;
  arithmetic: string;
}

export interface CostEstimate {
  ratePerSecond: number;
  recipients: number;
  lines: CostLine[];
  totalUsd: number;
  perThousandRecipientsUsd: number;
  dynamoDbBreakdown: Array<{ label: string; calls: number; writeUnits: number; readUnits: number }>;
}

export interface CostInputs {
  ratePerSecond: number;
  recipients: number;
  /** Counts of a whole broadcast (accept + drain) as measured. */
  measured: RequestCounts;
  measuredRecipients: number;
  /** Chunk-worker invocations measured (to report next to the model). */
  measuredInvocations: number;
  /** Accept request duration, ms (the broadcast-send invocation). */
  acceptMs: number;
}

const WORKER_SAFETY_MARGIN_SECONDS = 15; // app-config default WORKER_SAFETY_MARGIN_MS

export function estimateCost(inputs: CostInputs): CostEstimate {
  const scale = inputs.recipients / inputs.measuredRecipients;
  const lines: CostLine[] = [];
  const add = (item: string, quantity: number, unit: string, pricePerUnit: number, arithmetic: string) =>
    lines.push({ item, quantity, unit, usd: quantity * pricePerUnit, arithmetic });

  // API Gateway: the one POST. (Status polls cost the same per request: $3.50 per million.)
  add('API Gateway REST requests', 1, 'requests', prices.apiGatewayRestPerMillion / 1e6, `1 x $3.50/M`);

  // Lambda.
  const chunks = Math.ceil(inputs.recipients / 1000);
  const jobSeconds = inputs.recipients / inputs.ratePerSecond;
  const usableSeconds = functions['chunk-worker'].timeoutSeconds - WORKER_SAFETY_MARGIN_SECONDS;
  const parallelChunks = Math.min(chunks, chunkWorker.maxConcurrency);
  const invocationsPerChunk = Math.ceil(jobSeconds / usableSeconds);
  const workerInvocations = chunks * invocationsPerChunk;
  const workerGb = chunkWorker.memoryMb / 1024;
  const workerGbSeconds = parallelChunks * jobSeconds * workerGb * Math.ceil(chunks / parallelChunks);
  const sendGb = functions['broadcast-send'].memoryMb / 1024;
  const sendGbSeconds = (inputs.acceptMs / 1000) * sendGb;
  add('Lambda requests', 1 + workerInvocations, 'invocations', prices.lambdaPerMillionRequests / 1e6, `(1 broadcast-send + ${chunks} chunks x ${invocationsPerChunk}) x $0.20/M`);
  add(
    'Lambda chunk-worker compute',
    workerGbSeconds,
    'GB-s',
    prices.lambdaArmPerGbSecond,
    `${parallelChunks} concurrent chunks x ${jobSeconds.toFixed(1)} s x ${workerGb} GB x $0.0000133334`,
  );
  add('Lambda broadcast-send compute', sendGbSeconds, 'GB-s', prices.lambdaArmPerGbSecond, `${(inputs.acceptMs / 1000).toFixed(3)} s x ${sendGb} GB x $0.0000133334`);

  // SQS: sends as counted (billed per 64 KiB), one receive (billed per 64 KiB of payload) and one
  // delete per chunk message; continuation messages add a send, receive and delete each.
  const sendBatch = inputs.measured.sqs.SendMessageBatch ?? { calls: 0, billedRequests: 0, messages: 0, payloadBytes: 0 };
  const received = inputs.measured.sqs.ReceiveMessage;
  const averageMessageBytes = sendBatch.messages > 0 ? sendBatch.payloadBytes / sendBatch.messages : 0;
  const perMessageChunks = Math.max(1, Math.ceil(averageMessageBytes / 65_536));
  const chunkMessages = Math.round(sendBatch.messages * scale);
  const continuations = workerInvocations - chunks;
  const sends = Math.round(sendBatch.billedRequests * scale) + continuations * perMessageChunks;
  const receives = (chunkMessages + continuations) * perMessageChunks;
  const deletes = chunkMessages + continuations;
  add(
    'SQS requests',
    sends + receives + deletes,
    'requests (64 KiB units)',
    prices.sqsPerMillionRequests / 1e6,
    `(${sends} send + ${receives} receive + ${deletes} delete) x $0.40/M` +
      (received ? '; the event source mapping\'s empty long polls are a standing cost, not per broadcast' : ''),
  );

  // DynamoDB, as counted. The local gateway checks the API key against the credential store
  // itself (API Gateway does that in AWS, for free): one credential and one organization read of
  // the two counted per request belong to it and are left out.
  const breakdown: CostEstimate['dynamoDbBreakdown'] = [];
  let writeUnits = 0;
  let readUnits = 0;
  for (const [label, count] of Object.entries(inputs.measured.dynamodb)) {
    const gatewayShare = /^GetItem tenancy (CREDENTIAL\/CREDENTIAL|ORG\/ORGANIZATION)$/.test(label) ? 0.5 : 1;
    const isJobLevel = /rateLimits|idempotency|CREDENTIAL|ORGANIZATION|CLAIM|JOB\/JOB/.test(label);
    const factor = (isJobLevel ? 1 : scale) * gatewayShare;
    const labelWrites = count.writeUnits * factor;
    const calls = count.calls * factor;
    const labelReads = count.readUnits * factor;
    writeUnits += labelWrites;
    readUnits += labelReads;
    breakdown.push({ label, calls: Math.round(calls), writeUnits: Math.round(labelWrites), readUnits: Math.round(labelReads * 10) / 10 });
  }
  breakdown.sort((a, b) => b.writeUnits + b.readUnits - (a.writeUnits + a.readUnits));
  add('DynamoDB write request units', writeUnits, 'WRU', prices.dynamoDbPerMillionWriteUnits / 1e6, `${Math.round(writeUnits)} x $0.625/M`);
  add('DynamoDB read request units', readUnits, 'RRU', prices.dynamoDbPerMillionReadUnits / 1e6, `${Math.round(readUnits)} x $0.125/M`);

  const totalUsd = lines.reduce((sum, line) => sum + line.usd, 0);
  return {
    ratePerSecond: inputs.ratePerSecond,
    recipients: inputs.recipients,
    lines,
    totalUsd,
    perThousandRecipientsUsd: (totalUsd / inputs.recipients) * 1000,
    dynamoDbBreakdown: breakdown,
  };
}
