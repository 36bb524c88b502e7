/**
 * A local runtime for one bench part: fresh in-memory tables, no demo tenant, and the queue
 * consumers the part names (local/local-event-sources.ts `only`), started here instead of by the
 * runtime so that, with `count`, every DynamoDB and SQS request each consumer makes is filed under
 * its function's name (lib/request-counter.ts scopes; the gateway's requests fall under `other`).
 * `consumersInThisThread` builds the consumers' handlers in this thread even when the runtime runs
 * its functions in worker threads (the expansion part measures the expander's heap here).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { getServices, type Services } from '../../functions/composition';
import { inlineHandlers, type Handler } from '../../local/function-handlers';
import { startLocalEventSources, type LocalEventSources } from '../../local/local-event-sources';
import { startLocalRuntime, type Isolation, type LocalRuntime } from '../../local/local-runtime';
import type { FunctionName } from '../../runtime-contract/resource-definitions';
import type { CloudApiSandbox } from '../../sandbox/cloud-api-sandbox';
import { CampaignApi } from './campaign-api';
import { RequestCounter } from './request-counter';
import { sleep } from './stats';
import { createBenchTenant, issueKey, withRestoredEnvironment, type BenchTenant } from './workload';

export interface BenchRuntimeOptions {
  isolation?: Isolation;
  /** Queue consumers to run: their function names, or every one of the contract. */
  consumers: readonly FunctionName[] | 'all';
  consumersInThisThread?: boolean;
  /** Attach a request counter to this thread's SDK clients. */
  count?: boolean;
  /** The sandbox's default throughput per number. */
  sandboxRate?: number;
}

export interface BenchRuntime {
  runtime: LocalRuntime;
  services: Services;
  sandbox: CloudApiSandbox;
  counter?: RequestCounter;
  consumers: LocalEventSources;
  /** A tenant (bench number `n`) paced at `rate`/s, the sandbox's throughput for its number the same, and an API client with its key. */
  tenant(n: number, rate: number): Promise<{ tenant: BenchTenant; api: CampaignApi }>;
  /** Messages the sandbox accepted from `phoneNumberId`. */
  sentFrom(phoneNumberId: string): number;
}

/** Runs `work` with a bench runtime and stops everything after it, whatever happens. */
export function withBenchRuntime<T>(options: BenchRuntimeOptions, work: (bench: BenchRuntime) => Promise<T>): Promise<T> {
  return withRestoredEnvironment(async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-campaign-'));
    const runtime = await startLocalRuntime({
      port: 0,
      persist: false,
      dataDirectory,
      isolation: options.isolation ?? 'inline',
      sandbox: { throughputPerSecond: options.sandboxRate ?? 1000, log: () => undefined },
      startWorkers: false,
      seedDemo: false,
    });
    let consumers: LocalEventSources | undefined;
    try {
      const services = getServices();
      const counter = options.count ? new RequestCounter() : undefined;
      counter?.attachDynamoDb(services.clients.dynamoDbBase);
      counter?.attachSqs(services.clients.sqs);
      const handlers = options.consumersInThisThread ? inlineHandlers({ ...process.env }) : undefined;
      const handlerOf = async (name: FunctionName): Promise<Handler> => {
        const handler = await (handlers?.handlerOf(name) ?? runtime.functionHandler(name));
        return counter ? (event: unknown, context?: Context) => counter.inScope(name, () => handler(event, context)) : handler;
      };
      consumers = await startLocalEventSources({
        sqs: runtime.sqs,
        region: services.config.region,
        environment: process.env,
        handlerOf,
        ...(options.consumers === 'all' ? {} : { only: options.consumers }),
      });
      const sandbox = runtime.sandbox!;
      const bench: BenchRuntime = {
        runtime,
        services,
        sandbox,
        counter,
        consumers,
        tenant: async (n, rate) => {
          const tenant = await createBenchTenant(services, sandbox, n, rate);
          sandbox.configure({ throughputByPhoneNumberId: { [tenant.phoneNumberId]: rate } });
          return { tenant, api: new CampaignApi(runtime.baseUrl, await issueKey(services, tenant.organizationId)) };
        },
        sentFrom: (phoneNumberId) => sandbox.acceptedMessages().filter((message) => message.phoneNumberId === phoneNumberId).length,
      };
      return await work(bench);
    } finally {
      // A stuck invocation must not hold the bench: stop polling, give in-flight batches 20 s.
      await Promise.race([consumers?.stop(), sleep(20_000)]);
      await runtime.stop();
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
}
