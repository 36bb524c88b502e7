import { createHash } from 'node:crypto';
import { idempotencyKeyFor, planRequests, resendKeyFor, splitIntoParts } from '../../../../scripts/broadcast/send-plan';
import type { CsvRecipient } from '../../../../scripts/broadcast/recipients-csv';

const recipients = (count: number): CsvRecipient[] =>
  Array.from({ length: count }, (_, index) => ({
    line: index + 2,
    countryCode: '91',
    toPhoneNumber: String(9000000000 + index),
    templateParams: [`P${index}`],
  }));
const options = {
  fromPhoneNumber: '15550100001',
  templateName: 'order_update',
  templateLanguage: 'en_US',
  templateType: 'UTILITY' as const,
  broadcastName: 'march',
};

describe('a recipient by userId', () => {
  it('is sent with userId only, no number fields', () => {
    const [request] = planRequests('file', [{ line: 2, countryCode: '', toPhoneNumber: '', userId: 'US.1', templateParams: ['A'] }], options);
    expect(request!.body.data).toEqual([{ userId: 'US.1', templateParams: ['A'] }]);
  });
});

describe('splitIntoParts', () => {
  it('splits at 10,000 recipients per request', () => {
    expect(splitIntoParts(recipients(10_000)).map((part) => part.length)).toEqual([10_000]);
    expect(splitIntoParts(recipients(10_001)).map((part) => part.length)).toEqual([10_000, 1]);
    expect(splitIntoParts(recipients(25_000)).map((part) => part.length)).toEqual([10_000, 10_000, 5_000]);
  });
});

describe('planRequests', () => {
  it('makes one request per part with its lines, name and recipients in file order', () => {
    const plan = planRequests('file', recipients(20_001), options);
    expect(plan.map((request) => [request.part, request.parts, request.lines, request.body.data.length, request.body.broadcastName])).toEqual([
      [1, 3, { first: 2, last: 10_001 }, 10_000, 'march (part 1 of 3)'],
      [2, 3, { first: 10_002, last: 20_001 }, 10_000, 'march (part 2 of 3)'],
      [3, 3, { first: 20_002, last: 20_002 }, 1, 'march (part 3 of 3)'],
    ]);
    expect(plan[2]!.body).toEqual({
      broadcastName: 'march (part 3 of 3)',
      fromPhoneNumber: '15550100001',
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      data: [{ countryCode: '91', toPhoneNumber: '9000020000', templateParams: ['P20000'] }],
    });
    expect(new Set(plan.map((request) => request.idempotencyKey)).size).toBe(3);
  });

  it('sends scheduledAt when given and leaves templateParams out for a template without parameters', () => {
    const [request] = planRequests('file', [{ line: 2, countryCode: '44', toPhoneNumber: '7700900123', templateParams: [] }], {
      ...options,
      scheduledAt: '2026-03-01T09:00:00Z',
    });
    expect(request!.body.scheduledAt).toBe('2026-03-01T09:00:00Z');
    expect(request!.body.data).toEqual([{ countryCode: '44', toPhoneNumber: '7700900123' }]);
  });
});

describe('idempotencyKeyFor', () => {
  const key = (content: string, overrides: Partial<typeof options & { scheduledAt: string }> = {}, part = 1, parts = 2) =>
    idempotencyKeyFor(content, { ...options, ...overrides }, part, parts);

  it('is the same for the same file and options on every run (a re-run replays instead of sending)', () => {
    expect(key('a,b\n1,2\n')).toBe(key('a,b\n1,2\n'));
    expect(key('a,b\n1,2\n')).toMatch(/^csv-[0-9a-f]{40}-part-1-of-2$/);
    expect(idempotencyKeyFor(Buffer.from('a,b\n1,2\n'), options, 1, 2)).toBe(key('a,b\n1,2\n'));
  });

  it('differs by content, part, sender, template, language and schedule, but not by broadcast name', () => {
    const base = key('x');
    const variants = [
      key('y'),
      key('x', {}, 2),
      key('x', { fromPhoneNumber: '15550100002' }),
      key('x', { templateName: 'spring_sale' }),
      key('x', { templateLanguage: 'en' }),
      key('x', { scheduledAt: '2026-03-01T09:00:00Z' }),
    ];
    expect(new Set([base, ...variants]).size).toBe(7);
    expect(key('x', { broadcastName: 'other' })).toBe(base);
  });

  it('fits the service rule: 1 to 255 printable ASCII characters', () => {
    expect(key('x', {}, 9999, 9999)).toMatch(/^[\x21-\x7e]{1,255}$/);
  });
});

describe('resendKeyFor', () => {
  const plain = idempotencyKeyFor('a,b\n1,2\n', options, 2, 3);

  it('is a new key of the same part, the same on every run for the same earlier job, another for another job', () => {
    const again = resendKeyFor(plain, 'pub_earlier1');
    expect(again).toMatch(/^csv-[0-9a-f]{40}-part-2-of-3$/);
    expect(again).not.toBe(plain);
    expect(resendKeyFor(plain, 'pub_earlier1')).toBe(again);
    expect(resendKeyFor(plain, 'pub_earlier2')).not.toBe(again);
    // A second resend, once the first is past the window too, moves on from the first resend's job.
    expect(resendKeyFor(again, 'pub_resent1')).not.toBe(again);
  });
});

describe('planRequests and idempotencyKeyFor with values common to every row', () => {
  const broadcastFields = { header: { type: 'image' as const, link: 'https://cdn.example/a.jpg' }, globalTemplateParams: { store: 'Soho' } };

  it("puts them in every part's body, and each recipient's own fields in its entry", () => {
    const rich = [
      {
        line: 2,
        countryCode: '44',
        toPhoneNumber: '7700900123',
        templateParams: { first_name: 'Ada' },
        buttons: [{ index: 0, type: 'url' as const, text: 'A-1' }],
      },
    ];
    const [request] = planRequests('file', rich, { ...options, broadcastFields });
    expect(request!.body).toMatchObject({
      ...broadcastFields,
      data: [{ countryCode: '44', toPhoneNumber: '7700900123', templateParams: { first_name: 'Ada' }, buttons: [{ index: 0, type: 'url', text: 'A-1' }] }],
    });
  });

  it('keys on them when there are some; a plain send keeps the key it had before they existed', () => {
    const plain = idempotencyKeyFor('x', options, 1, 1);
    const before = createHash('sha256')
      .update(
        JSON.stringify({
          v: 1,
          fileHash: createHash('sha256').update('x').digest('hex'),
          from: options.fromPhoneNumber,
          template: options.templateName,
          language: options.templateLanguage,
          scheduledAt: null,
        }),
      )
      .digest('hex');
    expect(plain).toBe(`csv-${before.slice(0, 40)}-part-1-of-1`);
    expect(idempotencyKeyFor('x', { ...options, broadcastFields: {} }, 1, 1)).toBe(plain);
    expect(idempotencyKeyFor('x', { ...options, broadcastFields }, 1, 1)).not.toBe(plain);
  });
});
