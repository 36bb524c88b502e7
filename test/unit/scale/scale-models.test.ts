/**
 * The scale simulation's models on their own (test/support/scale/): the rules the simulation's
 * figures rest on, each able to fail.
 */
import { DynamoModel } from '../../support/scale/dynamo-model';
import { LambdaEventSourceModel } from '../../support/scale/lambda-event-source-model';
import { MetaModel } from '../../support/scale/meta-model';
import { IndexedBroadcastRepository } from '../../support/scale/indexed-broadcast-repository';
import { ScaleLedgerDeliveryStore } from '../../support/scale/scale-delivery-events';
import type { StatusEvent } from '../../../shared/delivery/ports';
import { mulberry32 } from '../../support/scale/seeded-random';
import { SqsModel } from '../../support/scale/sqs-model';
import { VirtualScheduler } from '../../support/scale/virtual-scheduler';

const queueSettings = { visibilityTimeoutMs: 30_000, maxReceiveCount: 2, inFlightLimit: 120_000 };

describe('scale models', () => {
  it('mulberry32 repeats its sequence for a seed', () => {
    const a = mulberry32(1);
    const b = mulberry32(1);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(mulberry32(2)()).not.toBe(first[0]);
  });

  it('the virtual scheduler fires timers by time, and timers of one instant in the order they were set', async () => {
    const time = new VirtualScheduler(0);
    const random = mulberry32(9);
    const fired: Array<{ at: number; order: number }> = [];
    for (let order = 0; order < 500; order += 1) {
      const delay = Math.floor(random() * 50);
      time.at(delay, () => fired.push({ at: time.nowMs(), order }));
    }
    await time.runUntil(100);
    expect(fired).toHaveLength(500);
    const sorted = [...fired].sort((a, b) => a.at - b.at || a.order - b.order);
    expect(fired).toEqual(sorted);
  });

  it('fair queues: a backlogged group does not delay another group (and without groups it does)', () => {
    for (const fair of [true, false]) {
      const queue = new SqsModel<string>(new VirtualScheduler(0), { ...queueSettings, fair });
      queue.send(
        Array.from({ length: 100 }, (_, index) => `big-${index}`),
        'org_big',
      );
      queue.send(['small'], 'org_small');
      const order = queue.receive(10).map((entry) => entry.message.body);
      expect(order.includes('small')).toBe(fair);
    }
  });

  it('a message not deleted comes back after the visibility timeout, then goes to the dead-letter queue', async () => {
    const time = new VirtualScheduler(0);
    const queue = new SqsModel<string>(time, { ...queueSettings, fair: false });
    queue.send(['m'], 'org');
    expect(queue.receive(1)).toHaveLength(1);
    await time.runUntil(29_000);
    expect(queue.visibleCount).toBe(0);
    await time.runUntil(30_000);
    expect(queue.receive(1)[0]!.message.receiveCount).toBe(2);
    await time.runUntil(60_000);
    expect(queue.deadLetters).toHaveLength(1);
    expect(queue.redelivered).toBe(1);
  });

  it('the event source never runs more than its ceiling, scaling up from its first pollers', async () => {
    const time = new VirtualScheduler(0);
    const queue = new SqsModel<number>(time, { ...queueSettings, fair: false });
    const settings = {
      name: 'f',
      maxConcurrency: 12,
      batchSize: 1,
      timeoutMs: 60_000,
      initialConcurrency: 5,
      scaleUpPerMinute: 300,
      coldStartMedianMs: 100,
      pollDelayMs: 20,
    };
    const model = new LambdaEventSourceModel(
      time,
      queue,
      settings,
      async () => {
        await time.sleep(2_000);
        return { failedIds: [] };
      },
      mulberry32(3),
    );
    queue.send(
      Array.from({ length: 200 }, (_, index) => index),
      'org',
    );
    await time.runUntil(500);
    expect(model.running).toBe(5);
    await time.runUntil(120_000);
    expect(model.peakRunning).toBe(12);
    expect(model.invocations).toBe(200);
    expect(queue.visibleCount + queue.inFlightCount).toBe(0);
  });

  it('DynamoDB: a partition key takes 1,000 WCU a second; the rest waits for the next seconds', async () => {
    const time = new VirtualScheduler(0);
    const dynamo = new DynamoModel(time, { wcuPerPartitionKey: 1_000, roundTripMedianMs: 5 }, mulberry32(4));
    const writes = Array.from({ length: 1_500 }, () => dynamo.charge('JOB#j', 1));
    await time.runUntil(10_000);
    await Promise.all(writes);
    expect(dynamo.hottest(1, 10)[0]!.peakWcuPerSecond).toBe(1_000);
    expect(dynamo.throttles).toBeGreaterThan(0);
  });

  it('Meta refuses sends over the number rate with 130429 and records each taken send once', async () => {
    const time = new VirtualScheduler(0);
    const meta = new MetaModel(
      time,
      { latencyMedianMs: 200, latencySigma: 0.1, tailShare: 0, tailMedianMs: 1_000, burstSeconds: 1, faultShare: 0, faultedNumbers: new Set() },
      () => 10,
      mulberry32(5),
    );
    const sends = Array.from({ length: 15 }, (_, index) => meta.sendMessage('pn', { biz_opaque_callback_data: `b1:j:0:${index}` }, { accessToken: 't' }));
    await time.runUntil(5_000);
    const outcomes = await Promise.all(sends);
    expect(outcomes.filter((outcome) => outcome.kind === 'accepted')).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome.kind === 'rejected' && outcome.error.code === 130429)).toHaveLength(5);
    expect(meta.taken.size).toBe(10);
  });

  it('the ledger delivery store applies a stage once per entry the worker wrote, and charges one write per tally item', async () => {
    const time = new VirtualScheduler(0);
    const dynamo = new DynamoModel(time, { wcuPerPartitionKey: 1_000, roundTripMedianMs: 5 }, mulberry32(6));
    const repository = new IndexedBroadcastRepository();
    for (const index of [0, 1, 60]) repository.ledger.set(`j#0#${index}`, { index, to: '1', status: 'SENT', updatedAt: '' } as never);
    const store = new ScaleLedgerDeliveryStore(repository, dynamo);
    const event = (stage: StatusEvent['stage']) => ({ stage, messageId: 'wamid.1', timestamp: new Date(0), recipientId: '1' }) as StatusEvent;
    const at = (index: number) => ({ jobId: 'j', chunkIndex: 0, index });
    const applying = store.applyEvents('j', [
      { location: at(0), event: event('sent') },
      { location: at(0), event: event('sent') },
      { location: at(1), event: event('delivered') },
      { location: at(60), event: event('read') },
      { location: at(70), event: event('sent') },
    ]);
    await time.runUntil(1_000);
    expect(await applying).toEqual(['applied', 'unchanged', 'applied', 'applied', 'not-found']);
    // Indexes 0-1 and 60-70: two 50-recipient tally items on the job's partition.
    expect(dynamo.hottest(1, 1)[0]).toMatchObject({ key: 'JOB#j', peakWcuPerSecond: 2 });
  });
});
