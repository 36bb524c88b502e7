/**
 * What every OutcomeStore does (a recipient's replies, taps, clicks and attributed opt-outs), as
 * observed through the port: run on the in-memory fake (test/unit/contracts) and the DynamoDB
 * adapter on dynalite (test/integration/contracts). Each test uses its own job.
 */
import type { OutcomeStore } from '../../../shared/outcomes/ports';

let sequence = 0;
const freshJob = () => `pub_${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}outcomes`;
const at = (iso: string) => new Date(iso);
const location = (jobId: string, index: number) => ({ jobId, chunkIndex: Math.floor(index / 1000), index });

export function describeOutcomeStoreContract(name: string, makeStore: () => OutcomeStore | Promise<OutcomeStore>): void {
  describe(`OutcomeStore contract: ${name}`, () => {
    let store: OutcomeStore;
    let jobId: string;
    beforeAll(async () => {
      store = await makeStore();
    });
    beforeEach(() => {
      jobId = freshJob();
    });

    it('keeps the first reply, says a duplicate added nothing, and keeps recipients apart', async () => {
      const results = await store.recordOutcomes(jobId, [
        { location: location(jobId, 7), event: { kind: 'reply', at: at('2026-12-01T10:00:05Z'), via: 'context' } },
        { location: location(jobId, 7), event: { kind: 'reply', at: at('2026-12-01T09:00:00Z'), via: 'last-touch' } },
        { location: location(jobId, 57), event: { kind: 'reply', at: at('2026-12-01T11:00:00Z'), via: 'context' } },
      ]);
      expect(results).toEqual(['applied', 'applied', 'applied']);
      await expect(
        store.recordOutcomes(jobId, [{ location: location(jobId, 7), event: { kind: 'reply', at: at('2026-12-01T10:00:05Z'), via: 'context' } }]),
      ).resolves.toEqual(['unchanged']);
      await expect(store.outcomesOf(jobId, 7)).resolves.toEqual({ repliedAt: '2026-12-01T09:00:00.000Z' });
      await expect(store.outcomesOf(jobId, 57)).resolves.toEqual({ repliedAt: '2026-12-01T11:00:00.000Z' });
      await expect(store.outcomesOf(jobId, 8)).resolves.toEqual({});
      await expect(store.outcomesOf(freshJob(), 7)).resolves.toEqual({});
    });

    it('counts clicks in distinct seconds, the first one first', async () => {
      await store.recordOutcomes(jobId, [
        { location: location(jobId, 1049), event: { kind: 'click', at: at('2026-12-01T10:00:00.100Z') } },
        { location: location(jobId, 1049), event: { kind: 'click', at: at('2026-12-01T10:05:00Z') } },
      ]);
      await expect(
        store.recordOutcomes(jobId, [{ location: location(jobId, 1049), event: { kind: 'click', at: at('2026-12-01T10:00:00.900Z') } }]),
      ).resolves.toEqual(['unchanged']);
      await expect(store.outcomesOf(jobId, 1049)).resolves.toEqual({ firstClickAt: '2026-12-01T10:00:00.000Z', clicks: 2 });
    });

    it('keeps each button first tap with its payload (colons and all), and an attributed opt-out', async () => {
      await store.recordOutcomes(jobId, [
        { location: location(jobId, 0), event: { kind: 'button', at: at('2026-12-01T10:02:00Z'), index: 1, payload: 'STOP:promo' } },
        { location: location(jobId, 0), event: { kind: 'button', at: at('2026-12-01T10:01:00Z'), index: 0, payload: 'Yes please' } },
        { location: location(jobId, 0), event: { kind: 'button', at: at('2026-12-01T10:03:00Z'), index: 0, payload: 'Yes please' } },
        { location: location(jobId, 0), event: { kind: 'opt-out', at: at('2026-12-01T10:02:00Z') } },
      ]);
      await expect(store.outcomesOf(jobId, 0)).resolves.toEqual({
        buttonTaps: [
          { index: 0, payload: 'Yes please', at: '2026-12-01T10:01:00.000Z' },
          { index: 1, payload: 'STOP:promo', at: '2026-12-01T10:02:00.000Z' },
        ],
        optedOutAt: '2026-12-01T10:02:00.000Z',
      });
    });

    it('records a click telling the first from a later one, and a second click in the same second as nothing', async () => {
      await expect(store.recordClick(location(jobId, 52), at('2026-12-01T10:00:00.200Z'))).resolves.toBe('first');
      await expect(store.recordClick(location(jobId, 52), at('2026-12-01T10:00:00.900Z'))).resolves.toBe('unchanged');
      await expect(store.recordClick(location(jobId, 53), at('2026-12-01T10:00:00.200Z'))).resolves.toBe('first');
      await expect(store.recordClick(location(jobId, 52), at('2026-12-01T10:05:00Z'))).resolves.toBe('again');
      await expect(store.outcomesOf(jobId, 52)).resolves.toEqual({ firstClickAt: '2026-12-01T10:00:00.000Z', clicks: 2 });
    });
  });
}
