import crypto from 'node:crypto';
import { constantTimeEquals, isValidWebhookSignature, signWebhookBody } from '../../../shared/meta-app/webhook-signature';

const secret = 'app-secret-0123456789abcdef';
const body = Buffer.from('{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[]}]}', 'utf8');
const hmacHex = (payload: Buffer, key: string) => crypto.createHmac('sha256', key).update(payload).digest('hex');

describe('X-Hub-Signature-256', () => {
  afterEach(() => jest.restoreAllMocks());

  it('accepts sha256=<HMAC-SHA256 of the raw body with the app secret>, hex in either case, surrounding spaces ignored', () => {
    const signature = `sha256=${hmacHex(body, secret)}`;
    expect(signWebhookBody(body, secret)).toBe(signature);
    expect(isValidWebhookSignature(body, signature, secret)).toBe(true);
    expect(isValidWebhookSignature(body, `sha256=${hmacHex(body, secret).toUpperCase()}`, secret)).toBe(true);
    expect(isValidWebhookSignature(body, ` ${signature} `, secret)).toBe(true);
  });

  it('refuses a missing, malformed, truncated or foreign-key signature', () => {
    const good = hmacHex(body, secret);
    for (const header of [
      undefined,
      '',
      good,
      `sha1=${good}`,
      `sha256=${good.slice(0, 63)}`,
      `sha256=${good}0`,
      `sha256=${'z'.repeat(64)}`,
      `sha256=${hmacHex(body, 'other-secret')}`,
    ]) {
      expect([header, isValidWebhookSignature(body, header, secret)]).toEqual([header, false]);
    }
  });

  it('is over the exact bytes: a re-serialized body (same JSON, other spacing) does not verify', () => {
    const signature = signWebhookBody(body, secret);
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1));
    expect(isValidWebhookSignature(reserialized, signature, secret)).toBe(false);
    const oneByteChanged = Buffer.from(body);
    oneByteChanged[oneByteChanged.length - 2] = 0x20;
    expect(isValidWebhookSignature(oneByteChanged, signature, secret)).toBe(false);
  });

  it('compares every well-formed signature in constant time: both 32-byte digests go to timingSafeEqual, right or wrong', () => {
    const compare = jest.spyOn(crypto, 'timingSafeEqual');
    const good = hmacHex(body, secret);
    const wrongFirstByte = `${good[0] === '0' ? '1' : '0'}${good.slice(1)}`;
    const wrongLastByte = `${good.slice(0, 63)}${good[63] === '0' ? '1' : '0'}`;
    expect(isValidWebhookSignature(body, `sha256=${wrongFirstByte}`, secret)).toBe(false);
    expect(isValidWebhookSignature(body, `sha256=${wrongLastByte}`, secret)).toBe(false);
    expect(isValidWebhookSignature(body, `sha256=${good}`, secret)).toBe(true);
    expect(compare).toHaveBeenCalledTimes(3);
    for (const [presented, expected] of compare.mock.calls) {
      expect([(presented as Buffer).length, (expected as Buffer).length]).toEqual([32, 32]);
    }
  });

  it('compares verify tokens of any length in constant time (digests of equal length)', () => {
    const compare = jest.spyOn(crypto, 'timingSafeEqual');
    expect(constantTimeEquals('verify-me', 'verify-me')).toBe(true);
    expect(constantTimeEquals('verify-m', 'verify-me')).toBe(false);
    expect(constantTimeEquals('', 'verify-me')).toBe(false);
    expect(compare).toHaveBeenCalledTimes(3);
  });
});
