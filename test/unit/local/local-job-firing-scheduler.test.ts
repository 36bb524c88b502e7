import { LocalJobFiringScheduler } from '../../../local/local-job-firing-scheduler';

// A line printed after a test file ended makes jest fail the whole run ("Cannot log after tests are
// done" sets the exit code): a stopped scheduler must neither run nor report anything later.
describe('LocalJobFiringScheduler.stop', () => {
  test('waits for the firing under way and does not report its failure', async () => {
    let fail: (error: Error) => void = () => undefined;
    const reported: unknown[] = [];
    const scheduler = new LocalJobFiringScheduler(
      () => new Promise((_, reject) => (fail = reject)),
      (error) => reported.push(error),
    );
    await scheduler.scheduleFiring('job-1', new Date(Date.now() - 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    fail(new Error('store gone'));
    await stopping;
    expect(reported).toEqual([]);
  });

  test('reports a failed firing while running, and arms nothing after stop', async () => {
    const reported: unknown[] = [];
    const invoked: unknown[] = [];
    const scheduler = new LocalJobFiringScheduler(
      async (event) => {
        invoked.push(event);
        throw new Error('store unavailable');
      },
      (error) => reported.push(error),
    );
    await scheduler.scheduleFiring('job-1', new Date(Date.now() - 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reported).toHaveLength(1);
    await scheduler.scheduleFiring('job-2', new Date(Date.now() + 30));
    await scheduler.stop();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(invoked).toEqual([{ jobId: 'job-1' }]);
  });
});
