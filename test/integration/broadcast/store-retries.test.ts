/**
 * A transient store fault does not cost a chunk its turn (issue 28 item 6; docs/BROADCAST.md
 * "Delivery"), against the local runtime, dynalite, fauxqs and the Cloud API sandbox, through the
 * real chunk-worker handler:
 *
 * - a DynamoDB timeout injected into a ledger claim, an outcome write and a tally write mid-chunk
 *   is retried in place: the chunk finishes in the same invocation (no record fails), 0 duplicates,
 *   0 lost;
 * - a delivery that does fail (the store down for longer than the retries) is visible again within
 *   seconds through the local SQS event source and fauxqs (ChangeMessageVisibility), its receive
 *   count kept, and the redelivery finishes the job.
 *
 * Faults are injected into the process's pooled DynamoDB client (every function of the in-process
 * runtime shares it) at the build step, above the SDK's own retries: the port sees a
 * StoreUnavailableError, as after a timeout the SDK could not mend.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { BuildMiddleware } from '@smithy/types';
import { getServices } from '../../../functions/composition';
import { startSqsEventSource } from '../../../local/sqs-event-source';
import { decodeOutboundMessage } from '../../../shared/broadcast/chunk-message';
import type { TestRuntime } from '../../support/local-runtime';
import {
  BASE,
  DEMO,
  acceptedByRecipient,
  issueKey,
  keyHeader,
  orderUpdate,
  realWorkerHandler,
  recipients,
  runWorkersUntilIdle,
  waitForTerminal,
  useKitRuntime,
  type Recipient,
} from './broadcast-test-kit';

type Input = {
  Item?: { pk?: { S?: string } };
  Key?: { pk?: { S?: string }; sk?: { S?: string } };
  ConditionExpression?: string;
  RequestItems?: Record<string, Array<{ PutRequest?: { Item: Record<string, AttributeValue> } }>>;
};

describe('store faults inside a chunk invocation', () => {
  let runtime: TestRuntime;
  let organizationId: string;

  useKitRuntime(async (started) => {
    runtime = started;
    organizationId = runtime.demo.organizationId;
  });

  const submit = async (data: Recipient[]): Promise<string> => {
    const key = await issueKey(organizationId);
    const response = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key.secret), body: orderUpdate(data) });
    expect(response.status).toBe(202);
    return response.body.data.jobId as string;
  };
  const to = (recipient: Recipient) => recipient.countryCode + recipient.toPhoneNumber.replace(/^0+/, '');
  /** 0 duplicates, 0 lost: each recipient of the list exactly once at the sandbox. */
  const expectExactlyOnce = (list: Recipient[]) => {
    const byRecipient = acceptedByRecipient(runtime, DEMO.phoneNumberId1);
    expect(list.filter((recipient) => byRecipient.get(to(recipient))?.length !== 1).map(to)).toEqual([]);
    expect(runtime.sandbox!.acceptedMessages()).toHaveLength(list.length);
  };

  /** Adds a build-step middleware to the pooled DynamoDB client; returns its removal. */
  const inject = (name: string, middleware: BuildMiddleware<object, object>): (() => void) => {
    const stack = getServices().clients.dynamoDbBase.middlewareStack;
    stack.add(middleware as never, { step: 'build', name });
    return () => void stack.remove(name);
  };
  const timeoutError = () => Object.assign(new Error('a request has exceeded the configured requestTimeout (injected)'), { name: 'TimeoutError' });

  it('a timeout in a claim, an outcome and a tally write mid-chunk, and outcome pages left unprocessed, are retried in place: the chunk finishes in the same invocation, everyone sent once', async () => {
    const total = 1_001;
    const data = recipients(total, { first: 9_190_000_000 });
    const jobId = await submit(data);

    const kinds = { claim: 0, outcome: 0, tally: 0 };
    const kindOf = (command: string | undefined, input: Input): keyof typeof kinds | undefined => {
      // Ledger pages (docs/DATA-MODEL.md "Ledger pages"): a group claim is a conditional UpdateItem of its page, an outcome flush
      // an unconditional one (a page it holds in part) or a BatchWriteItem of whole pages.
      const onLedgerPage = command === 'UpdateItemCommand' && input.Key?.pk?.S?.startsWith(`LEDGER#${jobId}#`);
      if (onLedgerPage && input.ConditionExpression?.includes('attribute_not_exists')) return 'claim';
      if (onLedgerPage && input.ConditionExpression === undefined) return 'outcome';
      const requests = command === 'BatchWriteItemCommand' ? Object.values(input.RequestItems ?? {})[0] : undefined;
      if (requests?.some((request) => request.PutRequest?.Item.pk?.S?.startsWith(`LEDGER#${jobId}#`))) return 'outcome';
      if (command === 'UpdateItemCommand' && input.Key?.pk?.S === `JOB#${jobId}` && input.Key.sk?.S?.startsWith('TALLY#')) return 'tally';
      return undefined;
    };
    // The 20th group claim, the 3rd outcome write and the 10th tally write of the job time out: mid-chunk
    // (flushes of 200 outcomes make 6 or more outcome writes for the first chunk's 1,000), once each. The failed request
    // object keeps failing, so only a new call (the port's retry) gets through. From the 2nd outcome write on, the first
    // BatchWriteItem of whole pages is answered with every item unprocessed, none written: the adapter offers them again.
    const faultAt = { claim: 20, outcome: 3, tally: 10 };
    let unprocessedLeft = 1;
    const failing = new WeakSet<object>();
    const injected: string[] = [];
    const repair = inject('test-store-timeouts-mid-chunk', (next, context) => async (args) => {
      const input = args.input as Input;
      if (failing.has(input)) throw timeoutError();
      const kind = kindOf(context.commandName, input);
      if (kind === undefined) return next(args);
      kinds[kind] += 1;
      if (kind === 'outcome' && input.RequestItems && kinds.outcome >= 2 && kinds.outcome !== faultAt.outcome && unprocessedLeft > 0) {
        unprocessedLeft -= 1;
        injected.push('unprocessed');
        const [[table, requests]] = Object.entries(input.RequestItems) as [[string, Array<{ PutRequest?: { Item: Record<string, AttributeValue> } }>]];
        // The document client's own shape: its unmarshalling of answers sits below this step.
        const unprocessed = requests.map((request) => ({ PutRequest: { Item: unmarshall(request.PutRequest!.Item) } }));
        return { output: { $metadata: {}, UnprocessedItems: { [table]: unprocessed } }, response: {} } as never;
      }
      if (kinds[kind] === faultAt[kind]) {
        failing.add(input);
        injected.push(kind);
        throw timeoutError();
      }
      return next(args);
    });
    try {
      // Fails the test if any invocation failed a record (its chunk would have gone back to the queue).
      await runWorkersUntilIdle(runtime);
    } finally {
      repair();
    }

    expect(injected.sort()).toEqual(['claim', 'outcome', 'tally', 'unprocessed']);
    const view = await waitForTerminal(organizationId, jobId);
    expect(view).toMatchObject({ status: 'COMPLETED', summary: { sent: total, failed: 0, unknown: 0, pending: 0, chunksDone: 2 } });
    expectExactlyOnce(data);
  }, 90_000);

  it('a delivery that fails (the store down longer than the retries) is back within seconds, its receive count kept, and the job finishes', async () => {
    const total = 1_001;
    const data = recipients(total, { first: 9_200_000_000 });
    const jobId = await submit(data);

    // The first chunk's start mark fails on every call until the first failed delivery is reported.
    const chunkKey = { pk: `JOB#${jobId}`, sk: 'CHUNK#0000' };
    let down = true;
    const repair = inject('test-chunk-item-down', (next) => async (args) => {
      const input = args.input as Input;
      if (down && input.Key?.pk?.S === chunkKey.pk && input.Key.sk?.S === chunkKey.sk) throw timeoutError();
      return next(args);
    });
    /** Each invocation: when it started and ended, the chunk and receive count of its record, whether it failed. */
    const invocations: Array<{ startedAt: number; endedAt: number; chunkIndex: number; receiveCount: string; failed: boolean }> = [];
    const worker = await realWorkerHandler();
    const source = startSqsEventSource({
      sqs: runtime.sqs,
      queueUrl: runtime.queueUrls.outbound,
      queueArn: `arn:aws:sqs:us-east-1:000000000000:${runtime.queueUrls.outbound.split('/').pop()}`,
      handler: async (event, context) => {
        const record = event.Records[0]!;
        const noted = {
          startedAt: Date.now(),
          endedAt: 0,
          chunkIndex: decodeOutboundMessage(record.body).chunkIndex,
          receiveCount: record.attributes.ApproximateReceiveCount,
          failed: true,
        };
        invocations.push(noted);
        try {
          const result = await worker(event, context);
          noted.failed = (result?.batchItemFailures.length ?? 0) > 0;
          return result;
        } finally {
          noted.endedAt = Date.now();
          if (noted.failed) down = false;
        }
      },
      batchSize: 1,
      maxConcurrency: 2,
      functionTimeoutSeconds: 120,
      waitTimeSeconds: 0,
      reportBatchItemFailures: true,
    });
    try {
      const view = await waitForTerminal(organizationId, jobId, 60_000);
      expect(view).toMatchObject({ status: 'COMPLETED', summary: { sent: total, failed: 0, unknown: 0, pending: 0 } });
      await source.idle();
    } finally {
      await source.stop();
      repair();
    }

    const failed = invocations.filter((invocation) => invocation.failed);
    expect(failed).toMatchObject([{ chunkIndex: 0, receiveCount: '1' }]);
    // Its next delivery: receive count 2, seconds later (1-2 s of visibility, then the poll), not the
    // queue's 12-minute visibility timeout; it succeeds.
    const again = invocations.filter((invocation) => invocation.chunkIndex === 0 && invocation.receiveCount === '2');
    expect(again).toHaveLength(1);
    expect(again[0]!.failed).toBe(false);
    expect(again[0]!.startedAt - failed[0]!.endedAt).toBeLessThan(6_000);
    expectExactlyOnce(data);
  }, 90_000);
});
