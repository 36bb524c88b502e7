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
import { chunkWorker, deliveryEvents, functions } from '../runtime-contract/resource-definitions';
import { surfaces, type FrontDoorKind } from '../runtime-contract/route-manifest';
import type { RequestCounts } from './lib/request-counter';

export const prices = {
  apiGatewayRestPerMillion: 3.5,
  /** HTTP API, first 300 million a month; a request is counted per 512 KB (Meta's POSTs are far smaller). */
  apiGatewayHttpPerMillion: 1.0,
  lambdaArmPerGbSecond: 0.0000133334,
  lambdaPerMillionRequests: 0.2,
  sqsPerMillionRequests: 0.4,
  dynamoDbPerMillionWriteUnits: 0.625,
  dynamoDbPerMillionReadUnits: 0.125,
} as const;

/** Assumed billed time of one meta-webhook invocation (settings cached, one HMAC, one SQS send): AWS, not local. */
const META_WEBHOOK_MS = 20;

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
  add(
    'Lambda requests',
    1 + workerInvocations,
    'invocations',
    prices.lambdaPerMillionRequests / 1e6,
    `(1 broadcast-send + ${chunks} chunks x ${invocationsPerChunk}) x $0.20/M`,
  );
  add(
    'Lambda chunk-worker compute',
    workerGbSeconds,
    'GB-s',
    prices.lambdaArmPerGbSecond,
    `${parallelChunks} concurrent chunks x ${jobSeconds.toFixed(1)} s x ${workerGb} GB x $0.0000133334`,
  );
  add(
    'Lambda broadcast-send compute',
    sendGbSeconds,
    'GB-s',
    prices.lambdaArmPerGbSecond,
    `${(inputs.acceptMs / 1000).toFixed(3)} s x ${sendGb} GB x $0.0000133334`,
  );

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
      (received ? "; the event source mapping's empty long polls are a standing cost, not per broadcast" : ''),
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

/* ------------------------------------------------ broadcast incl. its delivery events */

/** What each counted write is for (per-recipient write table), by scope and request label. */
const WRITE_PURPOSES: Array<{ scope: RegExp; label: RegExp; purpose: string }> = [
  { scope: /chunk-worker/, label: /^PutItem messaging LEDGER\/R$/, purpose: 'ledger claim: conditional put before the send (exactly once)' },
  {
    scope: /chunk-worker/,
    label: /^(UpdateItem|BatchWriteItem) messaging LEDGER\/R$/,
    purpose: 'ledger outcome (status, message id; + a gsi1 copy while entries carried gsi1 keys)',
  },
  {
    scope: /chunk-worker/,
    label: /^(PutItem|BatchWriteItem) messaging WAMID/,
    purpose: 'message id record: WAMID -> ledger entry (events without callback data, /upstream ownership)',
  },
  { scope: /chunk-worker/, label: /^UpdateItem messaging JOB\/TALLY$/, purpose: 'tally codes of outcomes (one update per 50-recipient item per flush)' },
  { scope: /chunk-worker/, label: /^UpdateItem messaging JOB\/CHUNK$/, purpose: 'chunk progress counters, start, done' },
  { scope: /chunk-worker/, label: /PACE/, purpose: 'pacer slot reservations' },
  {
    scope: /delivery-events/,
    label: /^UpdateItem messaging LEDGER\/R$/,
    purpose: 'event facts on the ledger entry (first-seen <stage>At; + the gsi1 copy, projection ALL, while entries carried gsi1 keys)',
  },
  {
    scope: /delivery-events/,
    label: /^PutItem messaging WAMID/,
    purpose: "message id record of an entry that had none (UNKNOWN, or an event before the worker's outcome)",
  },
  { scope: /delivery-events/, label: /^UpdateItem messaging JOB\/TALLY$/, purpose: 'tally: recipient status code raised (max-register), per event' },
  { scope: /delivery-events/, label: /^UpdateItem messaging JOB\/TALLYS?/, purpose: 'tally: event stages of a batch, coalesced per 50-recipient item' },
  { scope: /other|accept/, label: /^(PutItem|BatchWriteItem|UpdateItem) messaging JOB/, purpose: 'accept: job, chunk and recipients items' },
];

export interface WriteRow {
  scope: string;
  label: string;
  purpose: string;
  calls: number;
  writeUnits: number;
  perRecipient: number;
}

/** Every write of the run (all scopes but `poll`), per recipient, with what it is for. */
export function writeTable(counts: RequestCounts, recipients: number): WriteRow[] {
  const rows: WriteRow[] = [];
  for (const [scope, labels] of Object.entries(counts.dynamodbByScope ?? {})) {
    if (scope === 'poll') continue;
    for (const [label, count] of Object.entries(labels)) {
      if (count.writeUnits === 0) continue;
      const purpose = WRITE_PURPOSES.find((row) => row.scope.test(scope) && row.label.test(label))?.purpose ?? 'job-level (rate limit, idempotency, job item…)';
      rows.push({ scope, label, purpose, calls: count.calls, writeUnits: count.writeUnits, perRecipient: count.writeUnits / recipients });
    }
  }
  return rows.sort((a, b) => b.writeUnits - a.writeUnits);
}

/** The counts without the bench's own polling (`poll` scope). */
function withoutPolling(counts: RequestCounts): RequestCounts {
  const poll = counts.dynamodbByScope?.poll ?? {};
  const dynamodb: RequestCounts['dynamodb'] = {};
  for (const [label, count] of Object.entries(counts.dynamodb)) {
    const polled = poll[label];
    const left = {
      calls: count.calls - (polled?.calls ?? 0),
      refusedConditions: count.refusedConditions - (polled?.refusedConditions ?? 0),
      writeUnits: count.writeUnits - (polled?.writeUnits ?? 0),
      readUnits: count.readUnits - (polled?.readUnits ?? 0),
    };
    if (left.calls > 0) dynamodb[label] = left;
  }
  return { ...counts, dynamodb };
}

const deliveryEventsBatch = deliveryEvents.batchSize;
/**
 * Modelled delivery-events time on AWS (the local run shares one thread with everything and
 * retries on emulator timeouts): 20 ms per invocation + per event two ~10 ms DynamoDB writes,
 * 16 in flight (apply-webhook-batch.ts).
 */
const deliveryEventsMs = (invocations: number, events: number) => invocations * 20 + (events * 2 * 10) / 16;

/** Price per million requests of each front door kind; a Lambda function URL (not used: no throttle, no access logs) has none. */
export const frontDoorPricePerMillion: Record<FrontDoorKind | 'function-url', number> = {
  'rest-api': prices.apiGatewayRestPerMillion,
  'http-api': prices.apiGatewayHttpPerMillion,
  'function-url': 0,
};
const frontDoorLabel: Record<FrontDoorKind | 'function-url', string> = {
  'rest-api': 'API Gateway REST',
  'http-api': 'API Gateway HTTP API',
  'function-url': 'Lambda function URL',
};

/** The Meta webhook's front door, as the runtime contract says (surface `webhooks`). */
export const webhookFrontDoor: FrontDoorKind = surfaces.webhooks.frontDoor;

/**
 * What the webhook side costs per POST-driven part, for `recipients` with `statusesPerRecipient`
 * statuses each, at `statusesPerPost`: the front door's requests, meta-webhook's Lambda requests and
 * GB-s (`META_WEBHOOK_MS` per POST) and SQS (one send per POST; delivery-events receives and deletes
 * batches of up to `deliveryEvents.batchSize`). The DynamoDB writes of the events are not here:
 * they follow the events, not the POSTs. docs/PERFORMANCE.md §5 and docs/OPERATIONS.md "Front doors".
 *
 * @example
 * webhookPostCost('http-api', 1).totalUsd; // ≈ 0.0524 (30,000 POSTs: $0.030 front door, $0.008 Lambda, $0.0144 SQS)
 */
export function webhookPostCost(
  frontDoor: FrontDoorKind | 'function-url',
  statusesPerPost: number,
  recipients = 10_000,
  statusesPerRecipient = 3,
): { posts: number; lines: CostLine[]; totalUsd: number } {
  const posts = Math.ceil((recipients * statusesPerRecipient) / statusesPerPost);
  const batches = Math.ceil(posts / deliveryEvents.batchSize);
  const gb = functions['meta-webhook'].memoryMb / 1024;
  const lines: CostLine[] = [
    {
      item: `${frontDoorLabel[frontDoor]} requests`,
      quantity: posts,
      unit: 'requests',
      usd: (posts * frontDoorPricePerMillion[frontDoor]) / 1e6,
      arithmetic: `${posts} x $${frontDoorPricePerMillion[frontDoor].toFixed(2)}/M`,
    },
    {
      item: 'Lambda meta-webhook requests',
      quantity: posts,
      unit: 'invocations',
      usd: (posts * prices.lambdaPerMillionRequests) / 1e6,
      arithmetic: `${posts} x $0.20/M`,
    },
    {
      item: 'Lambda meta-webhook compute',
      quantity: posts * (META_WEBHOOK_MS / 1000) * gb,
      unit: 'GB-s',
      usd: posts * (META_WEBHOOK_MS / 1000) * gb * prices.lambdaArmPerGbSecond,
      arithmetic: `${posts} x ${META_WEBHOOK_MS} ms x ${gb} GB`,
    },
    {
      item: 'SQS metaEvents requests',
      quantity: posts + 2 * batches,
      unit: 'requests',
      usd: ((posts + 2 * batches) * prices.sqsPerMillionRequests) / 1e6,
      arithmetic: `(${posts} send + ${batches} receive + ${batches} delete) x $0.40/M`,
    },
  ];
  return { posts, lines, totalUsd: lines.reduce((sum, line) => sum + line.usd, 0) };
}

export interface BroadcastCostEstimate extends CostEstimate {
  statusesPerPost: number;
  webhookPosts: number;
  writeUnitsPerRecipient: number;
  writes: WriteRow[];
}

/**
 * The send-path estimate (estimateCost) plus what the delivery events cost: one API Gateway
 * request, one meta-webhook invocation and one SQS send per webhook POST; delivery-events
 * invocations of up to 10 POSTs (each one SQS receive and one delete batch); their DynamoDB
 * requests are in the counts. Scaled to 10,000 recipients like the send path.
 */
export function estimateBroadcastCost(
  run: {
    recipients: number;
    ratePerSecond: number;
    statusesPerPost: number;
    webhookPosts: number;
    acceptMs: number;
    statuses: number;
    chunkInvocations: { count: number };
    eventInvocations: { count: number; totalMs: number };
    requestCounts: RequestCounts;
  },
  recipients = 10_000,
): BroadcastCostEstimate {
  const counts = withoutPolling(run.requestCounts);
  const base = estimateCost({
    ratePerSecond: run.ratePerSecond,
    recipients,
    measured: counts,
    measuredRecipients: run.recipients,
    measuredInvocations: run.chunkInvocations.count,
    acceptMs: run.acceptMs,
  });
  const scale = recipients / run.recipients;
  const posts = run.webhookPosts * scale;
  const eventInvocations = Math.ceil(posts / deliveryEventsBatch);
  const eventSeconds = deliveryEventsMs(eventInvocations, run.statuses * scale) / 1000;
  const eventGb = functions['delivery-events'].memoryMb / 1024;
  const lines = [...base.lines];
  const insertAt = lines.findIndex((line) => line.item.startsWith('DynamoDB'));
  const extra: CostLine[] = [
    {
      item: `${frontDoorLabel[webhookFrontDoor]} requests (Meta webhook POSTs)`,
      quantity: posts,
      unit: 'requests',
      usd: (posts * frontDoorPricePerMillion[webhookFrontDoor]) / 1e6,
      arithmetic: `${Math.round(posts)} POSTs (up to ${run.statusesPerPost} statuses each) x $${frontDoorPricePerMillion[webhookFrontDoor].toFixed(2)}/M`,
    },
    {
      item: 'Lambda requests (meta-webhook + delivery-events)',
      quantity: posts + eventInvocations,
      unit: 'invocations',
      usd: ((posts + eventInvocations) * prices.lambdaPerMillionRequests) / 1e6,
      arithmetic: `(${Math.round(posts)} + ${Math.round(eventInvocations)}) x $0.20/M`,
    },
    {
      item: 'Lambda meta-webhook compute',
      quantity: posts * (META_WEBHOOK_MS / 1000) * (functions['meta-webhook'].memoryMb / 1024),
      unit: 'GB-s',
      usd: posts * (META_WEBHOOK_MS / 1000) * (functions['meta-webhook'].memoryMb / 1024) * prices.lambdaArmPerGbSecond,
      arithmetic: `${Math.round(posts)} x ${META_WEBHOOK_MS} ms (assumed) x ${functions['meta-webhook'].memoryMb / 1024} GB`,
    },
    {
      item: 'Lambda delivery-events compute',
      quantity: eventSeconds * eventGb,
      unit: 'GB-s',
      usd: eventSeconds * eventGb * prices.lambdaArmPerGbSecond,
      arithmetic: `${eventSeconds.toFixed(1)} s modelled (20 ms per invocation + 1.25 ms per event) x ${eventGb} GB (local: ${((run.eventInvocations.totalMs / 1000) * scale).toFixed(0)} s, one shared thread)`,
    },
    {
      item: 'SQS requests (metaEvents)',
      quantity: posts + 2 * eventInvocations,
      unit: 'requests',
      usd: ((posts + 2 * eventInvocations) * prices.sqsPerMillionRequests) / 1e6,
      arithmetic: `(${Math.round(posts)} send + ${Math.round(eventInvocations)} receive + ${Math.round(eventInvocations)} delete batch) x $0.40/M`,
    },
  ];
  lines.splice(insertAt < 0 ? lines.length : insertAt, 0, ...extra);
  const totalUsd = lines.reduce((sum, line) => sum + line.usd, 0);
  const writes = writeTable(run.requestCounts, run.recipients);
  return {
    ...base,
    lines,
    totalUsd,
    perThousandRecipientsUsd: (totalUsd / recipients) * 1000,
    statusesPerPost: run.statusesPerPost,
    webhookPosts: posts,
    writeUnitsPerRecipient: writes.reduce((sum, row) => sum + row.perRecipient, 0),
    writes,
  };
}
