/**
 * Download URLs the sandbox hands out (media, QR images, flow JSON). Like Meta's CDN URLs they
 * carry an expiry and a signature, so a client cannot guess or extend one and must fetch a fresh
 * URL when it expires — the behaviour production code has to cope with.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export class UrlSigner {
  /** Per sandbox: URLs from an earlier run stop working, as expired CDN URLs do. */
  constructor(private readonly secret: Buffer = randomBytes(32)) {}

  sign(kind: string, id: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`${kind}\u0000${id}\u0000${expiresAt}`).digest('base64url');
  }

  /** True when `hash` signs exactly this kind, id and expiry and the expiry has not passed. */
  verify(kind: string, id: string, expiresAt: number, hash: string, now: number): boolean {
    if (!Number.isInteger(expiresAt) || expiresAt <= now) return false;
    const expected = Buffer.from(this.sign(kind, id, expiresAt));
    const given = Buffer.from(hash);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
