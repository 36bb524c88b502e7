import { DueQueue } from '../../../sandbox/due-queue';

describe('DueQueue', () => {
  it('runs callbacks in order of due time, ties in order of scheduling, even when the loop runs late', async () => {
    const order: string[] = [];
    let resolveDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    const queue = new DueQueue(() => {
      if (queue.size === 0) resolveDone();
    });
    queue.schedule(30, () => order.push('c'));
    queue.schedule(10, () => order.push('a'));
    queue.schedule(20, () => order.push('b1'));
    queue.schedule(20, () => order.push('b2'));
    queue.schedule(0, () => order.push('first'));
    // Block the loop past every due time: all are overdue together when it comes back.
    const until = Date.now() + 50;
    while (Date.now() < until);
    await done;
    expect(order).toEqual(['first', 'a', 'b1', 'b2', 'c']);
  });

  it('drops everything on clear', async () => {
    const ran: number[] = [];
    const queue = new DueQueue();
    queue.schedule(5, () => ran.push(1));
    queue.clear();
    expect(queue.size).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toEqual([]);
  });
});
