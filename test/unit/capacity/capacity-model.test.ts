/** The capacity model: every queue consumer's ceiling from the inputs, headroom, SQS's range, the quota. */
import { capacityInputs, type CapacityInputs } from '../../../runtime-contract/capacity-inputs';
import {
  CapacityBudgetError,
  deriveCapacity,
  eventSourceCeilings,
  localConcurrencyOf,
  totalConcurrency,
  withHeadroom,
} from '../../../runtime-contract/capacity-model';
import { chunkWorker, customerEventsDispatcher, deliveryEvents } from '../../../runtime-contract/resource-definitions';

const ceilingOf = (inputs: CapacityInputs, consumer: string) => deriveCapacity(inputs).find((entry) => entry.consumer === consumer)!.ceiling;

describe('withHeadroom', () => {
  it('adds three standard deviations of Poisson arrivals and rounds up', () => {
    expect(withHeadroom(100)).toBe(130);
    expect(withHeadroom(195)).toBe(237);
  });

  it("stays inside SQS's 2 to 1,000 and above a floor", () => {
    expect(withHeadroom(0)).toBe(2);
    expect(withHeadroom(5_000)).toBe(1_000);
    expect(withHeadroom(1, 40)).toBe(40);
  });
});

describe('deriveCapacity', () => {
  it('sizes the chunk worker by the accounts draining at peak, not a fixed 20', () => {
    expect(ceilingOf(capacityInputs, 'chunkWorker')).toBe(withHeadroom(130 * 2));
    const busier = { ...capacityInputs, broadcasts: { ...capacityInputs.broadcasts, drainingAccounts: 260 } };
    expect(ceilingOf(busier, 'chunkWorker')).toBeGreaterThan(ceilingOf(capacityInputs, 'chunkWorker'));
  });

  it("sizes delivery-events by Meta's statuses at peak and the time each takes", () => {
    expect(ceilingOf(capacityInputs, 'deliveryEvents')).toBe(withHeadroom(34_722 * 0.0045));
    const slower = { ...capacityInputs, deliveryEvents: { ...capacityInputs.deliveryEvents, secondsPerStatus: 0.009 } };
    expect(ceilingOf(slower, 'deliveryEvents')).toBeGreaterThan(ceilingOf(capacityInputs, 'deliveryEvents'));
  });

  it('keeps the dispatcher at its fairness floor when its load is small', () => {
    const quiet = { ...capacityInputs, customerEvents: { ...capacityInputs.customerEvents, deliveriesPerSecond: 10 } };
    expect(ceilingOf(quiet, 'customerEventsDispatcher')).toBe(40);
  });

  it("refuses a sizing the account's quota cannot hold, naming the figure and where to change it", () => {
    const defaultQuota = { ...capacityInputs, accountConcurrencyQuota: 1_000 };
    expect(() => deriveCapacity(defaultQuota)).toThrow(CapacityBudgetError);
    expect(() => deriveCapacity(defaultQuota)).toThrow(/needs 1271 concurrent executions at peak, over the account's quota of 1000/);
    expect(totalConcurrency(deriveCapacity(capacityInputs), capacityInputs)).toBeLessThanOrEqual(capacityInputs.accountConcurrencyQuota);
  });
});

describe('the definitions and the local runtime read the model', () => {
  it('puts the ceilings on the event sources', () => {
    expect(chunkWorker.maxConcurrency).toBe(eventSourceCeilings.chunkWorker);
    expect(deliveryEvents.maxConcurrency).toBe(eventSourceCeilings.deliveryEvents);
    expect(customerEventsDispatcher.maxConcurrency).toBe(eventSourceCeilings.customerEventsDispatcher);
  });

  it('scales them to one machine by one rule', () => {
    expect(localConcurrencyOf({ functionName: 'chunk-worker', maxConcurrency: 309 })).toBe(20);
    expect(localConcurrencyOf({ functionName: 'customer-events', maxConcurrency: 198 })).toBe(40);
    expect(localConcurrencyOf({ functionName: 'campaign-expander', maxConcurrency: 20 })).toBe(20);
    expect(localConcurrencyOf({ functionName: 'delivery-events', maxConcurrency: 194 })).toBe(2);
  });
});
