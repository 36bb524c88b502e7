/**
 * Message ids shaped like Meta's (`wamid.` + base64). A random per-sandbox nonce keeps ids from
 * two sandbox runs apart, since clients persist them; base64url keeps them safe in URLs and keys.
 */
import { randomBytes } from 'node:crypto';

export class MessageIdGenerator {
  private readonly nonce = randomBytes(6).toString('hex');
  private sequence = 0;

  next(recipient: string): string {
    this.sequence += 1;
    return `wamid.${Buffer.from(`${recipient}.${this.nonce}.${this.sequence}`).toString('base64url')}`;
  }
}
