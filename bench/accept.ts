/**
 * Accept latency of a 10,000-recipient send-template-broadcast through the local gateway (real
 * HTTP on 127.0.0.1), against the floor of the same work done directly in the same process.
 *
 * The runtime runs with `startWorkers: false`, so nothing drains the queue meanwhile; the queue is
 * purged after every round. Every request has its own broadcast key (the contract allows 10
 * requests per minute per key and sender, and the usage plan a burst of 20 per key) and its own
 * body (recipient numbers and broadcast name differ). Requests are sequential; the floor of each
 * body is measured right after its request so both see the same machine load.
 *
 * Floor = JSON.parse of the request text + building the same chunk messages with
 * `chunkMessages` + `SqsOutboundQueue.enqueue` to the same fauxqs queue with the same client.
 *
 * Then, to explain the gap: the steps of the request timed one by one through the exported
 * functions and services the handler uses (median of 10 calls each), and a CPU profile of 10
 * requests.
 *
 * Issue 24's rich body (`rich: [false, true]`) is measured the same way in the same runtime: the
 * same recipients, a broadcast-level image header and each recipient's own URL button, and a floor
 * that queues the same content.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PurgeQueueCommand } from '@aws-sdk/client-sqs';
import { getServices, type Services } from '../functions/composition';
import { startLocalRuntime, type LocalRuntime } from '../local/local-runtime';
import { CHUNK_SIZE, type BroadcastJob } from '../shared/broadcast/broadcast-job';
import { chunkMessages, type ChunkRecipient, type OutboundMessage } from '../shared/broadcast/chunk-message';
import { reserveReach } from '../shared/broadcast/messaging-limit';
import { findDuplicateRecipient, listedRecipientOf, payloadHashOf, withoutOptedOut } from '../shared/broadcast/send-template-broadcast';
import { selectTemplate } from '../shared/broadcast/template-checks';
import { resolveRecipients } from '../shared/broadcast/broadcast-content';
import { requirementsOf } from '../shared/templates/template-requirements';
import { parseTemplateBroadcastRequest, templateBroadcastSchema, type TemplateBroadcastRequest } from '../shared/broadcast/template-broadcast.schema';
import { SqsOutboundQueue } from '../shared/adapters/sqs/sqs-outbound-queue';
import { parseRequest } from '../shared/http/validation';
import { routes } from '../runtime-contract/all-routes';
import { lambdaContext, proxyEventFor } from '../test/support/api-gateway-event';
import { distribution, median, type Distribution } from './lib/stats';
import { profile, saveProfile, summarizeProfile, type ProfileSummary } from './lib/profile';
import { RequestCounter, type RequestCounts } from './lib/request-counter';
import {
  BENCH_RICH_TEMPLATE,
  BENCH_TEMPLATE,
  broadcastBody,
  createBenchTenant,
  issueKey,
  postBroadcast,
  withRestoredEnvironment,
  type BenchTenant,
} from './lib/workload';

const projectRoot = resolve(__dirname, '..');

export interface AcceptOptions {
  recipients: number;
  /**
   * The bodies to measure, in one runtime: false the plain body, true issue 24's rich one (a
   * broadcast-level image header and a URL button per recipient: workload.ts `broadcastBody`). Default [false].
   */
  rich?: boolean[];
  rounds: number;
  requestsPerRound: number;
  log?: (line: string) => void;
  /** Where to save the CPU profile of each body kind. */
  profileFile?: (rich: boolean) => string;
}

export interface RoundResult {
  accept: Distribution;
  /** The broadcast-send Lambda handler invoked directly with the proxy event (no HTTP, no gateway). */
  handler: Distribution;
  floor: Distribution;
  acceptWithIdempotencyKey: Distribution;
  ratioP50: number;
  ratioP95: number;
  /** CPU ms of the process per request (user + system), accept and floor. */
  acceptCpu: Distribution;
  floorCpu: Distribution;
}

export interface AcceptResult {
  recipients: number;
  rich: boolean;
  bodyBytes: number;
  firstRequestMs: number;
  rounds: RoundResult[];
  /** Median over rounds of each round's figure. */
  acceptP50: number;
  acceptP95: number;
  floorP50: number;
  floorP95: number;
  ratioP50: number;
  ratioP95: number;
  handlerP50: number;
  handlerP95: number;
  handlerRatioP50: number;
  handlerRatioP95: number;
  /** Median over rounds of the p50 CPU ms per request, and their ratio (robust to other processes' load). */
  acceptCpuP50: number;
  floorCpuP50: number;
  cpuRatioP50: number;
  /** Same requests with an Idempotency-Key header (median over rounds). */
  withIdempotencyKeyP50: number;
  withIdempotencyKeyP95: number;
  steps: Array<{ step: string; ms: number }>;
  /** AWS requests of one accepted request (local gateway's key check included; see cost). */
  requestCounts: RequestCounts;
  profile: ProfileSummary;
}

interface Context {
  runtime: LocalRuntime;
  services: Services;
  tenant: BenchTenant;
  queue: SqsOutboundQueue;
  seed: number;
  rich: boolean;
}

function nextBody(context: Context, label: string, recipients: number): string {
  context.seed += 1;
  return JSON.stringify(
    broadcastBody({
      count: recipients,
      seed: context.seed % 100,
      from: context.tenant.phoneNumber,
      name: `bench ${label} ${context.seed}`,
      rich: context.rich,
    }),
  );
}

/** CPU milliseconds (user + system) this process spent since `since`: everything runs in it (client, gateway, handler, emulators). */
const cpuMsSince = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** CPU of the last acceptOnce / floorOnce: on a shared machine it moves far less than the wall time. */
let lastCpuMs = 0;

async function acceptOnce(context: Context, text: string, headers: Record<string, string> = {}, presetKey?: string): Promise<number> {
  const key = presetKey ?? (await issueKey(context.services, context.tenant.organizationId));
  const cpu = process.cpuUsage();
  const answer = await postBroadcast(context.runtime.baseUrl, key, text, headers);
  lastCpuMs = cpuMsSince(cpu);
  if (answer.status !== 202) throw new Error(`expected 202, got ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer.ms;
}

const sendRoute = routes.find((route) => route.operation === 'sendTemplateBroadcast')!;

/** The Lambda handler as API Gateway would invoke it: the proxy event, in this process. */
async function handlerOnce(context: Context, text: string): Promise<number> {
  const key = await issueKey(context.services, context.tenant.organizationId);
  const { handler } = (await import('../functions/broadcast-send/broadcast-send.lambda')) as unknown as {
    handler: (event: ReturnType<typeof proxyEventFor>, lambda: ReturnType<typeof lambdaContext>) => Promise<{ statusCode: number; body: string }>;
  };
  const event = proxyEventFor(sendRoute, { headers: { 'Content-Type': 'application/json', 'x-api-key': key }, body: text });
  const started = performance.now();
  const result = await handler(event, lambdaContext());
  const elapsed = performance.now() - started;
  if (result.statusCode !== 202) throw new Error(`handler answered ${result.statusCode}: ${result.body.slice(0, 300)}`);
  return elapsed;
}

/** POST of the same body to a bare node:http server in this process that only reads it. */
async function transportTimer(): Promise<{ post: (text: string) => Promise<number>; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes: body.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    post: async (text) => {
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
      await response.text();
      return performance.now() - started;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The floor: parse, chunk, enqueue. Same body, same queue, same SQS client as the handler; a rich
 * body's content rides along as the handler queues it (header on the template, buttons per recipient).
 */
async function floorOnce(context: Context, text: string): Promise<number> {
  const { tenant } = context;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const body = JSON.parse(text) as TemplateBroadcastRequest;
  const recipients: ChunkRecipient[] = body.data.map((recipient, index) => ({
    index,
    to: recipient.userId ?? `${recipient.countryCode}${recipient.toPhoneNumber}`,
    parameters: recipient.templateParams ?? [],
    ...(recipient.buttons && { content: { buttons: recipient.buttons } }),
  }));
  const template = context.rich ? BENCH_RICH_TEMPLATE : BENCH_TEMPLATE;
  const messages: OutboundMessage[] = [];
  for (let chunkIndex = 0; chunkIndex * CHUNK_SIZE < recipients.length; chunkIndex += 1) {
    messages.push(
      ...chunkMessages(
        {
          kind: 'template-chunk',
          version: 1,
          jobId: `floor_${context.seed}`,
          organizationId: tenant.organizationId,
          chunkIndex,
          wabaId: tenant.wabaId,
          phoneNumberId: tenant.phoneNumberId,
          template: { name: template.name, language: template.language, ...(body.header && { content: { header: body.header } }) },
        },
        recipients.slice(chunkIndex * CHUNK_SIZE, (chunkIndex + 1) * CHUNK_SIZE),
      ),
    );
  }
  await context.queue.enqueue(messages);
  const elapsed = performance.now() - started;
  lastCpuMs = cpuMsSince(cpu);
  return elapsed;
}

async function purge(context: Context): Promise<void> {
  await context.runtime.sqs.send(new PurgeQueueCommand({ QueueUrl: context.runtime.queueUrls.outbound }));
}

async function timeStep(label: string, times: number, work: (iteration: number) => Promise<unknown> | unknown): Promise<{ step: string; ms: number }> {
  const samples: number[] = [];
  for (let iteration = 0; iteration < times; iteration += 1) {
    const started = performance.now();
    await work(iteration);
    samples.push(performance.now() - started);
  }
  return { step: label, ms: median(samples) };
}

/** The handler's steps one by one, with the same body and the same services. */
async function stepTimings(context: Context, recipients: number): Promise<Array<{ step: string; ms: number }>> {
  const { services, tenant } = context;
  const text = nextBody(context, 'steps', recipients);
  const parsed = JSON.parse(text) as unknown;
  const request = parseRequest(templateBroadcastSchema, parsed);
  const key = await issueKey(services, tenant.organizationId);
  const sender = await services.broadcast.senders.resolveSender(tenant.organizationId, tenant.phoneNumber);
  const templates = await services.broadcast.templates.templatesOf(sender.wabaId, sender.accessToken);
  const template = selectTemplate(templates, request);
  const resolved = resolveRecipients(request, requirementsOf(template), undefined, new Date());
  const buildMessages = (jobId: string): OutboundMessage[] => {
    const messages: OutboundMessage[] = [];
    for (let chunkIndex = 0; chunkIndex * CHUNK_SIZE < resolved.length; chunkIndex += 1) {
      const content = request.header ? { content: { header: request.header } } : {};
      const base = {
        kind: 'template-chunk' as const,
        version: 1 as const,
        jobId,
        organizationId: tenant.organizationId,
        chunkIndex,
        wabaId: sender.wabaId,
        phoneNumberId: sender.phoneNumberId,
        template: { name: template.name, language: template.language, ...content },
      };
      messages.push(...chunkMessages(base, resolved.slice(chunkIndex * CHUNK_SIZE, (chunkIndex + 1) * CHUNK_SIZE)));
    }
    return messages;
  };
  const listed = request.data.map(listedRecipientOf);
  const chunkSizes = Array.from({ length: Math.ceil(resolved.length / CHUNK_SIZE) }, (_, index) => Math.min(CHUNK_SIZE, resolved.length - index * CHUNK_SIZE));
  const job = (iteration: number): BroadcastJob => ({
    kind: 'template',
    jobId: `steps_${context.seed}_${iteration}`,
    organizationId: tenant.organizationId,
    broadcastName: 'steps',
    exposed: true,
    wabaId: sender.wabaId,
    phoneNumberId: sender.phoneNumberId,
    fromPhoneNumber: sender.phoneNumber,
    template: { name: template.name, language: template.language, category: template.category, id: template.id },
    totalRecipients: resolved.length,
    totalChunks: chunkSizes.length,
    chunkSize: CHUNK_SIZE,
    createdAt: new Date().toISOString(),
  });
  const messages = buildMessages('steps');
  const times = 10;
  const transport = await transportTimer();
  const steps = [
    await timeStep('HTTP POST of the body to a bare node:http server (client + server in this process)', times, () => transport.post(text)),
    await timeStep('JSON.parse of the body (middy json parser)', times, () => JSON.parse(text)),
    await timeStep('validation as the handler does it (parseTemplateBroadcastRequest)', times, () => parseTemplateBroadcastRequest(parsed)),
    await timeStep('validation by valibot alone (parseRequest of templateBroadcastSchema)', times, () => parseRequest(templateBroadcastSchema, parsed)),
    await timeStep('authenticate key: 2 reads (x2: gateway key check + handler)', times, async () => {
      await services.http.authenticate('broadcast-api-key', key);
      await services.http.authenticate('broadcast-api-key', key);
    }),
    await timeStep('rate limit: previous-minute read + 1 conditional update', times, (iteration) =>
      services.http.rateLimiter.consume(`bench-steps#${context.seed}#${iteration}`, 10, new Date()),
    ),
    await timeStep('duplicate check (findDuplicateRecipient)', times, () => findDuplicateRecipient(request.data)),
    await timeStep('resolve sender: 2 reads + token decrypt', times, () => services.broadcast.senders.resolveSender(tenant.organizationId, tenant.phoneNumber)),
    await timeStep('templates (cached) + selectTemplate', times, async () =>
      selectTemplate(await services.broadcast.templates.templatesOf(sender.wabaId, sender.accessToken), request),
    ),
    await timeStep('resolveRecipients', times, () => resolveRecipients(request, requirementsOf(template), undefined, new Date())),
    await timeStep('build chunk messages (chunkMessages)', times, () => buildMessages('steps')),
    await timeStep(`opt-outs of ${resolved.length} numbers (withoutOptedOut)`, times, () =>
      withoutOptedOut(services.broadcast.optOuts, tenant.organizationId, resolved, new Date()),
    ),
    await timeStep('messaging limit (reserveReach; same numbers, so no write after the first)', times, () =>
      reserveReach(
        services.broadcast,
        sender,
        resolved.map(({ to }) => to),
        new Date(),
      ),
    ),
    await timeStep(`createJob: job item + ${chunkSizes.length} chunk items + ${chunkSizes.length} recipient-list items`, times, (iteration) =>
      services.broadcast.broadcasts.createJob(job(iteration), chunkSizes, listed),
    ),
    await timeStep('enqueue (SqsOutboundQueue, SendMessageBatch)', times, () => services.broadcast.queue.enqueue(messages)),
    await timeStep('Idempotency-Key only: payload hash', times, () => payloadHashOf(request)),
    await timeStep('Idempotency-Key only: guard (put + update)', times, (iteration) =>
      services.broadcast.idempotency.run(`bench#${context.seed}#${iteration}`, 'hash', async () => ({ ok: true }), { inProgressTimeoutMs: 30_000 }),
    ),
  ];
  await transport.close();
  await purge(context);
  return steps;
}

/**
 * One runtime for every body kind asked for (`rich: [false, true]` measures the plain body and
 * issue 24's rich one): the handler module, once imported, keeps the clients of the runtime it
 * was first called in, so a second runtime in this process could not be measured directly. Rounds
 * alternate between the kinds, so both see the same machine load.
 */
export const benchAccept = (options: AcceptOptions): Promise<AcceptResult[]> => withRestoredEnvironment(() => benchAcceptInner(options));

async function benchAcceptInner(options: AcceptOptions): Promise<AcceptResult[]> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-accept-'));
  const runtime = await startLocalRuntime({
    port: 0,
    persist: false,
    dataDirectory,
    sandbox: { throughputPerSecond: 1000 },
    startWorkers: false,
    seedDemo: false,
  });
  try {
    const services = getServices();
    const counter = new RequestCounter();
    counter.attachDynamoDb(services.clients.dynamoDbBase);
    counter.attachSqs(services.clients.sqs);
    const tenant = await createBenchTenant(services, runtime.sandbox!, 1, 80);
    const context: Context = {
      runtime,
      services,
      tenant,
      queue: new SqsOutboundQueue(services.clients.sqs, { bulk: runtime.queueUrls.outbound }),
      seed: 0,
      rich: false,
    };
    const kinds = options.rich ?? [false];

    const warm = [];
    for (const rich of kinds) {
      context.rich = rich;
      warm.push(await warmAndCount(context, counter, options.recipients));
    }
    // Timed as the functions run: with the counters on, DynamoDB calls take the SDK's slower path.
    counter.detachDynamoDb(services.clients.dynamoDbBase);
    const rounds: RoundResult[][] = kinds.map(() => []);
    for (let round = 0; round < options.rounds; round += 1) {
      for (const [kind, rich] of kinds.entries()) {
        context.rich = rich;
        const result = await measureRound(context, options.recipients, options.requestsPerRound, round);
        rounds[kind]!.push(result);
        options.log?.(
          `  round ${round + 1}${kinds.length > 1 ? (rich ? ' rich ' : ' plain') : ''}: accept p50 ${result.accept.p50.toFixed(0)} / p95 ${result.accept.p95.toFixed(0)} ms, handler p50 ${result.handler.p50.toFixed(0)} ms, ` +
            `floor p50 ${result.floor.p50.toFixed(0)} / p95 ${result.floor.p95.toFixed(0)} ms, ratio ${result.ratioP50.toFixed(2)}x, with Idempotency-Key p50 ${result.acceptWithIdempotencyKey.p50.toFixed(0)} ms, ` +
            `CPU p50 accept ${result.acceptCpu.p50.toFixed(0)} / floor ${result.floorCpu.p50.toFixed(0)} ms`,
        );
      }
    }
    const results: AcceptResult[] = [];
    for (const [kind, rich] of kinds.entries()) {
      context.rich = rich;
      const steps = await stepTimings(context, options.recipients);
      const profileSummary = await profileRequests(context, options.recipients, options.profileFile?.(rich));
      results.push(summarize(options.recipients, rich, warm[kind]!, rounds[kind]!, steps, profileSummary));
    }
    return results;
  } finally {
    await runtime.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

interface Warmed {
  bodyBytes: number;
  firstRequestMs: number;
  requestCounts: RequestCounts;
}

/**
 * First request: the handler module is imported and the SDK clients are built (a cold start of the
 * local process, not comparable to Lambda's). Then one more to warm up, and one counted.
 */
async function warmAndCount(context: Context, counter: RequestCounter, recipients: number): Promise<Warmed> {
  const firstText = nextBody(context, 'first', recipients);
  const bodyBytes = Buffer.byteLength(firstText);
  const firstRequestMs = await acceptOnce(context, firstText);
  await acceptOnce(context, nextBody(context, 'warm', recipients));
  await handlerOnce(context, nextBody(context, 'warm', recipients));
  await floorOnce(context, firstText);

  const countedText = nextBody(context, 'counted', recipients);
  const countedKey = await issueKey(context.services, context.tenant.organizationId);
  counter.reset();
  await acceptOnce(context, countedText, {}, countedKey);
  const requestCounts = counter.snapshot();
  await purge(context);
  return { bodyBytes, firstRequestMs, requestCounts };
}

async function measureRound(context: Context, recipients: number, requests: number, round: number): Promise<RoundResult> {
  const accept: number[] = [];
  const handler: number[] = [];
  const floor: number[] = [];
  const withKey: number[] = [];
  const acceptCpu: number[] = [];
  const floorCpu: number[] = [];
  // Interleaved, so every variant sees the same machine load.
  for (let index = 0; index < requests; index += 1) {
    const text = nextBody(context, `r${round}`, recipients);
    accept.push(await acceptOnce(context, text));
    acceptCpu.push(lastCpuMs);
    handler.push(await handlerOnce(context, nextBody(context, `h${round}`, recipients)));
    floor.push(await floorOnce(context, text));
    floorCpu.push(lastCpuMs);
    withKey.push(await acceptOnce(context, nextBody(context, `k${round}`, recipients), { 'Idempotency-Key': `bench-${context.seed}-${Date.now()}` }));
    if (index % 5 === 4) await purge(context);
  }
  await purge(context);
  const result: RoundResult = {
    accept: distribution(accept),
    handler: distribution(handler),
    floor: distribution(floor),
    acceptWithIdempotencyKey: distribution(withKey),
    ratioP50: 0,
    ratioP95: 0,
    acceptCpu: distribution(acceptCpu),
    floorCpu: distribution(floorCpu),
  };
  result.ratioP50 = result.accept.p50 / result.floor.p50;
  result.ratioP95 = result.accept.p95 / result.floor.p95;
  return result;
}

/** A CPU profile of 10 accepted requests. */
async function profileRequests(context: Context, recipients: number, file: string | undefined): Promise<ProfileSummary> {
  const profiledTexts = Array.from({ length: 10 }, () => nextBody(context, 'prof', recipients));
  const profiledKeys = await Promise.all(profiledTexts.map(() => issueKey(context.services, context.tenant.organizationId)));
  const { profile: cpuProfile } = await profile(async () => {
    for (const [index, text] of profiledTexts.entries()) await acceptOnce(context, text, {}, profiledKeys[index]);
  });
  await purge(context);
  if (file) saveProfile(cpuProfile, file);
  return summarizeProfile(cpuProfile, projectRoot);
}

function summarize(
  recipients: number,
  rich: boolean,
  warm: Warmed,
  rounds: RoundResult[],
  steps: AcceptResult['steps'],
  profileSummary: ProfileSummary,
): AcceptResult {
  return {
    recipients,
    rich,
    ...warm,
    rounds,
    acceptP50: median(rounds.map((round) => round.accept.p50)),
    acceptP95: median(rounds.map((round) => round.accept.p95)),
    floorP50: median(rounds.map((round) => round.floor.p50)),
    floorP95: median(rounds.map((round) => round.floor.p95)),
    ratioP50: median(rounds.map((round) => round.ratioP50)),
    ratioP95: median(rounds.map((round) => round.ratioP95)),
    handlerP50: median(rounds.map((round) => round.handler.p50)),
    handlerP95: median(rounds.map((round) => round.handler.p95)),
    handlerRatioP50: median(rounds.map((round) => round.handler.p50 / round.floor.p50)),
    handlerRatioP95: median(rounds.map((round) => round.handler.p95 / round.floor.p95)),
    acceptCpuP50: median(rounds.map((round) => round.acceptCpu.p50)),
    floorCpuP50: median(rounds.map((round) => round.floorCpu.p50)),
    cpuRatioP50: median(rounds.map((round) => round.acceptCpu.p50 / round.floorCpu.p50)),
    withIdempotencyKeyP50: median(rounds.map((round) => round.acceptWithIdempotencyKey.p50)),
    withIdempotencyKeyP95: median(rounds.map((round) => round.acceptWithIdempotencyKey.p95)),
    steps,
    profile: profileSummary,
  };
}
