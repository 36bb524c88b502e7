/**
 * What every IdempotencyGuard does, as observed through the port (fake InMemoryIdempotencyGuard,
 * adapter PowertoolsIdempotencyGuard): one run per key, replayed results, refusals while running
 * and for another payload, and a key freed again when the work fails.
 */
import { IdempotencyKeyInProgressError, IdempotencyKeyReusedError } from '../../../shared/broadcast/errors';
import type { IdempotencyGuard } from '../../../shared/broadcast/ports';

let sequence = 0;
const freshKey = () => `contract#${process.pid}#${Date.now().toString(36)}#${(sequence += 1)}`;
const options = { inProgressTimeoutMs: 20_000 };

export function describeIdempotencyGuardContract(name: string, makeGuard: () => IdempotencyGuard | Promise<IdempotencyGuard>): void {
  describe(`IdempotencyGuard contract: ${name}`, () => {
    let guard: IdempotencyGuard;
    beforeAll(async () => {
      guard = await makeGuard();
    });

    it('runs the work once per key and replays its result', async () => {
      const key = freshKey();
      const work = jest.fn(async () => ({ jobId: 'job_1', totals: [1, 2] }));
      expect(await guard.run(key, 'hash-a', work, options)).toEqual({ jobId: 'job_1', totals: [1, 2] });
      expect(await guard.run(key, 'hash-a', work, options)).toEqual({ jobId: 'job_1', totals: [1, 2] });
      expect(work).toHaveBeenCalledTimes(1);
      // Another key is another run.
      expect(await guard.run(freshKey(), 'hash-a', async () => ({ jobId: 'job_2' }), options)).toEqual({ jobId: 'job_2' });
    });

    it('refuses the key with another payload without running the work', async () => {
      const key = freshKey();
      await guard.run(key, 'hash-a', async () => ({ n: 1 }), options);
      const work = jest.fn(async () => ({ n: 2 }));
      await expect(guard.run(key, 'hash-b', work, options)).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
      expect(work).not.toHaveBeenCalled();
    });

    it('answers in progress while the first run is under way, then replays it', async () => {
      const key = freshKey();
      let finish!: () => void;
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const first = guard.run(
        key,
        'hash-a',
        async () => {
          started();
          await new Promise<void>((resolve) => (finish = resolve));
          return { n: 7 };
        },
        options,
      );
      await running;
      await expect(guard.run(key, 'hash-a', async () => ({ n: 8 }), options)).rejects.toBeInstanceOf(IdempotencyKeyInProgressError);
      finish();
      expect(await first).toEqual({ n: 7 });
      expect(await guard.run(key, 'hash-a', async () => ({ n: 9 }), options)).toEqual({ n: 7 });
    });

    it('a failed run frees the key for a retry', async () => {
      const key = freshKey();
      await expect(guard.run(key, 'hash-a', async () => Promise.reject(new Error('crashed')), options)).rejects.toThrow('crashed');
      expect(await guard.run(key, 'hash-a', async () => ({ n: 1 }), options)).toEqual({ n: 1 });
    });
  });
}
