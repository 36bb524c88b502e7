import { OutsideServiceWindowError, SenderNotOwnedError } from '../../../shared/broadcast/errors';
import { isServiceWindowKnownClosed, sendFreeformMessage, serviceWindowMs } from '../../../shared/broadcast/send-freeform-message';
import { describeError } from '../../../shared/http/error-responses';
import { fixedClock } from '../../../shared/ports/clock';
import { randomIdGenerator } from '../../../shared/ports/id-generator';
import {
  InMemoryBroadcastRepository,
  InMemorySenderDirectory,
  ORG,
  OTHER_ORG,
  RecordedServiceWindow,
  RecordingOutboundQueue,
  SENDER,
} from '../../support/broadcast-fakes';

const NOW = '2026-03-01T09:00:00.000Z';
const hoursAgo = (hours: number) => new Date(Date.parse(NOW) - hours * 3600 * 1000);
const customer = '447700900555';

function setup() {
  const serviceWindow = new RecordedServiceWindow();
  const dependencies = {
    senders: new InMemorySenderDirectory([SENDER]),
    broadcasts: new InMemoryBroadcastRepository(),
    queue: new RecordingOutboundQueue(),
    clock: fixedClock(NOW),
    ids: randomIdGenerator,
    serviceWindow,
  };
  const send = (to = customer, from = SENDER.phoneNumber, organizationId = ORG) =>
    sendFreeformMessage(dependencies, { organizationId }, { type: 'text', text: 'Hello', fromPhoneNumber: from, toPhoneNumber: to });
  return { ...dependencies, send };
}

describe('the 24-hour customer-service window rule', () => {
  test('closed only when a recorded last message is 24 hours old or older; nothing recorded is unknown', () => {
    const now = new Date(NOW);
    expect(isServiceWindowKnownClosed(undefined, now)).toBe(false);
    expect(isServiceWindowKnownClosed(hoursAgo(1), now)).toBe(false);
    expect(isServiceWindowKnownClosed(new Date(now.getTime() - serviceWindowMs + 1), now)).toBe(false);
    expect(isServiceWindowKnownClosed(new Date(now.getTime() - serviceWindowMs), now)).toBe(true);
    expect(isServiceWindowKnownClosed(hoursAgo(25), now)).toBe(true);
  });
});

describe('send-freeform and the window', () => {
  test('a recipient who last wrote 25 hours ago: OutsideServiceWindowError, nothing recorded or queued', async () => {
    const kit = setup();
    kit.serviceWindow.record(ORG, SENDER.phoneNumber, customer, hoursAgo(25));
    await expect(kit.send()).rejects.toBeInstanceOf(OutsideServiceWindowError);
    expect(kit.broadcasts.jobs.size).toBe(0);
    expect(kit.queue.batches).toHaveLength(0);
  });

  test('a recipient who wrote within 24 hours is sent; so is one with nothing recorded', async () => {
    const kit = setup();
    kit.serviceWindow.record(ORG, SENDER.phoneNumber, customer, hoursAgo(23.9));
    await kit.send();
    await kit.send('447700900556');
    expect(kit.queue.messages).toHaveLength(2);
  });

  test('the window is per sender and organization: another sender’s or organization’s record does not apply', async () => {
    const kit = setup();
    kit.serviceWindow.record(ORG, '15550009999', customer, hoursAgo(30));
    kit.serviceWindow.record(OTHER_ORG, SENDER.phoneNumber, customer, hoursAgo(30));
    await kit.send();
    expect(kit.queue.messages).toHaveLength(1);
    expect(kit.serviceWindow.reads).toEqual([`${ORG}#${SENDER.phoneNumber}#${customer}`]);
  });

  test('the sender is checked first (401), the window is not read for a number that is not the organization’s', async () => {
    const kit = setup();
    await expect(kit.send(customer, '15550000000')).rejects.toBeInstanceOf(SenderNotOwnedError);
    expect(kit.serviceWindow.reads).toEqual([]);
  });

  test('answers 400 OUTSIDE_SERVICE_WINDOW on the broadcast surface, naming the rule', () => {
    expect(describeError(new OutsideServiceWindowError(), 'broadcast')).toMatchObject({
      statusCode: 400,
      code: 'OUTSIDE_SERVICE_WINDOW',
      message:
        "toPhoneNumber has not written to fromPhoneNumber in the last 24 hours: free-form messages are allowed only within 24 hours of the customer's last message; send an approved template instead",
    });
  });
});
