import { callbackDataOf, MAX_CALLBACK_DATA_LENGTH, parseCallbackData } from '../../../shared/delivery/callback-data';

describe('biz_opaque_callback_data', () => {
  it('round-trips a ledger reference and an /upstream send reference', () => {
    const ledger = { kind: 'ledger', jobId: 'pub_Ab-9_x', chunkIndex: 9, index: 9999 } as const;
    expect(parseCallbackData(callbackDataOf(ledger))).toEqual(ledger);
    expect(parseCallbackData(callbackDataOf({ kind: 'upstream-send', sendId: 'us_01J' }))).toEqual({ kind: 'upstream-send', sendId: 'us_01J' });
  });

  it("stays far below Meta's 512-character limit", () => {
    expect(callbackDataOf({ kind: 'ledger', jobId: 'x'.repeat(64), chunkIndex: 99999, index: 99999 }).length).toBeLessThan(MAX_CALLBACK_DATA_LENGTH / 4);
  });

  it.each([undefined, 42, '', 'order-123', 'b1:job', 'b1:job:1', 'b1:jo b:1:2', 'b1:job:1:2:3', 'u1:', 'u1:a:b', 'B1:job:1:2', 'b1:job:1:2\n'])(
    'treats %p as not ours',
    (value) => {
      expect(parseCallbackData(value)).toBeUndefined();
    },
  );

  it('refuses to build data it could not read back', () => {
    expect(() => callbackDataOf({ kind: 'upstream-send', sendId: 'has:colon' })).toThrow(TypeError);
  });
});
