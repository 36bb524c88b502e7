import { logger } from '../../../shared/observability/logger';
import { maskLogValue, maskText } from '../../../shared/observability/log-masking';

/** The platform logger's lines while `run` logs. */
function linesLoggedBy(run: () => void): string[] {
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array): boolean => {
    lines.push(String(chunk));
    return true;
  };
  // Powertools writes info to stdout, warn and error to stderr.
  const writes = [jest.spyOn(process.stdout, 'write').mockImplementation(capture), jest.spyOn(process.stderr, 'write').mockImplementation(capture)];
  logger.setLogLevel('INFO');
  try {
    run();
  } finally {
    logger.setLogLevel('SILENT');
    for (const write of writes) write.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

const phone = '15551234567';
const metaToken = 'EAAGm0PX4ZCpsBAKZBqQZDZD2b0c9TjzVZA4rBqWkL3mN';
const apiKey = `wbk_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v'}`;

describe('log masking', () => {
  it('prints neither a phone number nor a token, wherever a log call puts them', () => {
    const [line] = linesLoggedBy(() =>
      logger.warn(`send to +${phone} failed`, {
        to: phone,
        accessToken: metaToken,
        headers: { authorization: `Bearer ${apiKey}`, 'x-api-key': apiKey },
        recipients: [{ wa_id: phone }],
        detail: `Graph said: token ${metaToken} is invalid for ${phone}; key ${apiKey}`,
        error: new Error(`recipient ${phone} unreachable`),
      }),
    );
    expect(line).toBeDefined();
    expect(line).not.toContain(phone);
    expect(line).not.toContain(metaToken);
    expect(line).not.toContain(apiKey);
    const entry = JSON.parse(line!) as Record<string, unknown>;
    expect(entry.message).toBe('send to ****4567 failed');
    expect(entry.to).toBe('****4567');
    expect(entry.accessToken).toBe('[REDACTED]');
    expect(entry.headers).toEqual({ authorization: '[REDACTED]', 'x-api-key': '[REDACTED]' });
    expect(entry.recipients).toEqual([{ wa_id: '****4567' }]);
    expect(entry.detail).toBe('Graph said: token [REDACTED] is invalid for ****4567; key [REDACTED]');
    expect((entry.error as { message: string }).message).toBe('recipient ****4567 unreachable');
  });

  it("prints no person's token (a JWT), even in free text", () => {
    const jwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.eyJlbWFpbCI6ImFuYUBleGFtcGxlLmNvbSJ9.c2lnbmF0dXJlLXBhcnQtb2YtdGhlLXRva2Vu';
    const [line] = linesLoggedBy(() => logger.warn(`refused Bearer ${jwt} at the gate`, { detail: `token=${jwt};` }));
    expect(line).not.toContain(jwt.split('.')[1]);
    expect(JSON.parse(line!)).toMatchObject({ message: 'refused Bearer [REDACTED] at the gate', detail: 'token=[REDACTED];' });
  });

  it('masks keys appended to every line too', () => {
    logger.appendKeys({ phoneNumber: phone, webhookSecret: 'whsec_abc' });
    try {
      const [line] = linesLoggedBy(() => logger.info('request served', { statusCode: 200 }));
      expect(JSON.parse(line!)).toMatchObject({ phoneNumber: '****4567', webhookSecret: '[REDACTED]', statusCode: 200 });
    } finally {
      logger.resetKeys();
    }
  });

  it('keeps ids, counts and short numbers as they are', () => {
    const facts = {
      jobId: 'job_01J9Z3K4M5N6P7Q8R9S0T1V2W3',
      phoneNumberId: 'pn_1',
      chunkIndex: 12,
      sent: 1000,
      code: 130429,
      requestId: '12345678-1234-1234-1234-123456789012',
    };
    const [line] = linesLoggedBy(() => logger.info('chunk processed', facts));
    expect(JSON.parse(line!)).toMatchObject(facts);
  });

  it('masks 8 or more digits standing alone, not fewer, not inside a word', () => {
    expect(maskText('wa_id 4915123456789, code 131047, id job_01J9Z3K4M5N6P7Q8, 123456789abc')).toBe(
      'wa_id ****6789, code 131047, id job_01J9Z3K4M5N6P7Q8, 123456789abc',
    );
    expect(maskText('+1 5551234567')).toBe('+1 ****4567');
    expect(maskLogValue('signature', 'sha256=abc')).toBe('[REDACTED]');
    expect(maskLogValue('from', 4915123456789)).toBe('****6789');
  });
});
