import { FAIR_SCAN_DEPTH, moveFairPicksToFront } from '../../../local/fauxqs-fair-queues';

/** Waiting messages `A1 A2 … B1 …`: the letter is the group (none for `-`), the rest tells them apart. */
const queueOf = (...names: string[]) => names.map((name) => ({ messageId: name, ...(name.startsWith('-') ? {} : { messageGroupId: name[0] }) }));
const ids = (messages: Array<{ messageId: string }>) => messages.map((message) => message.messageId);

describe('the local fair queue order (moveFairPicksToFront)', () => {
  it('serves the tenant with the fewest messages in flight first, oldest message of a tenant first', () => {
    const queue = queueOf('A1', 'A2', 'A3', 'B1', 'B2', 'C1');
    moveFairPicksToFront(
      queue,
      new Map([
        ['A', 3],
        ['B', 1],
      ]),
      4,
    );
    expect(ids(queue)).toEqual(['C1', 'B1', 'B2', 'A1', 'A2', 'A3']);
  });

  it('takes turns when no tenant has anything in flight, ties going to the older message', () => {
    const queue = queueOf('A1', 'A2', 'A3', 'A4', 'B1', 'B2');
    moveFairPicksToFront(queue, new Map(), 4);
    expect(ids(queue)).toEqual(['A1', 'B1', 'A2', 'B2', 'A3', 'A4']);
  });

  it('finds a quiet tenant behind a deep backlog, within the scan depth', () => {
    const backlog = Array.from({ length: 500 }, (_, index) => `A${index}`);
    const queue = queueOf(...backlog, 'B1');
    moveFairPicksToFront(queue, new Map(), 2);
    expect(ids(queue).slice(0, 2)).toEqual(['A0', 'B1']);
    expect(ids(queue).slice(2)).toEqual(backlog.slice(1));
  });

  it('leaves the order sent alone with one tenant, or with no group at all (each message its own tenant)', () => {
    const one = queueOf('A1', 'A2', 'A3');
    moveFairPicksToFront(one, new Map([['A', 9]]), 10);
    expect(ids(one)).toEqual(['A1', 'A2', 'A3']);
    const none = queueOf('-1', '-2', '-3');
    moveFairPicksToFront(none, new Map(), 10);
    expect(ids(none)).toEqual(['-1', '-2', '-3']);
  });

  it('counts a message without a group as a tenant of its own, ahead of a busy group', () => {
    const queue = queueOf('A1', 'A2', '-x', 'A3');
    moveFairPicksToFront(queue, new Map([['A', 2]]), 2);
    expect(ids(queue)).toEqual(['-x', 'A1', 'A2', 'A3']);
  });

  it('looks no deeper than the scan depth', () => {
    const queue = queueOf(...Array.from({ length: FAIR_SCAN_DEPTH }, (_, index) => `A${index}`), 'B1');
    moveFairPicksToFront(queue, new Map([['A', 1]]), 1);
    expect(ids(queue)[0]).toBe('A0');
  });
});
