import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { ClickLinkKeys } from '../../../shared/clicks/click-link-key';
import { clickToken, readClickToken, type ClickReference } from '../../../shared/clicks/click-token';
import { isPreviewFetcher } from '../../../shared/clicks/preview-fetchers';
import { withTrackedTokens } from '../../../shared/clicks/tracked-buttons';
import type { ClickLinkKeyStore } from '../../../shared/clicks/ports';
import { LocalAesTokenCipher, generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { buttonsSchema } from '../../../shared/templates/template-content.schema';
import { requirementsOf } from '../../../shared/templates/template-requirements';
import { checkTemplateContent } from '../../../shared/templates/content-check';

const key = randomBytes(32);
const reference: ClickReference = { jobId: 'pub_8fJ2kQx0aZ9yT3bN1cV7mL', chunkIndex: 3, index: 3_141, buttonIndex: 1, scope: 'recipient' };

describe('click tokens', () => {
  it('round-trip: the token names exactly its job, chunk, recipient, button and scope', () => {
    expect(readClickToken(key, clickToken(key, reference))).toEqual(reference);
    expect(readClickToken(key, clickToken(key, { ...reference, scope: 'job', index: 0, chunkIndex: 0 }))).toEqual({
      ...reference,
      scope: 'job',
      index: 0,
      chunkIndex: 0,
    });
  });

  it('is deterministic (a retried send makes the same token), URL-safe and short', () => {
    const token = clickToken(key, reference);
    expect(clickToken(key, reference)).toBe(token);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(token.length).toBeLessThanOrEqual(72);
    expect(clickToken(key, { ...reference, buttonIndex: 2 })).not.toBe(token);
  });

  it('rejects every altered character, another key, truncation and junk', () => {
    const token = clickToken(key, reference);
    for (let position = 0; position < token.length; position += 1) {
      const altered = `${token.slice(0, position)}${token[position] === 'A' ? 'B' : 'A'}${token.slice(position + 1)}`;
      expect(readClickToken(key, altered)).toBeUndefined();
    }
    expect(readClickToken(randomBytes(32), token)).toBeUndefined();
    expect(readClickToken(key, token.slice(0, -2))).toBeUndefined();
    for (const junk of ['', 'x', '../../etc', 'a'.repeat(500), 'AQAFcHViX3gAAAA']) expect(readClickToken(key, junk)).toBeUndefined();
  });
});

describe('the link key', () => {
  const store = (): ClickLinkKeyStore & { stored?: string; reads: number } => {
    const memory: ClickLinkKeyStore & { stored?: string; reads: number } = {
      reads: 0,
      read: async () => {
        memory.reads += 1;
        return memory.stored;
      },
      createIfAbsent: async (encrypted) => (memory.stored ??= encrypted),
    };
    return memory;
  };

  it('is made once, kept encrypted under click-link, and read once per container', async () => {
    const cipher = new LocalAesTokenCipher(generateLocalTokenKey());
    const kept = store();
    const sender = new ClickLinkKeys(kept, cipher);
    await expect(new ClickLinkKeys(kept, cipher).verifyingKey()).resolves.toBeUndefined();
    const signing = await sender.signingKey();
    expect(signing).toHaveLength(32);
    expect(kept.stored).not.toContain(signing.toString('base64'));
    await expect(cipher.decrypt(kept.stored!, { purpose: 'webhook-secret', key: 'platform' })).rejects.toThrow();
    const redirect = new ClickLinkKeys(kept, cipher);
    await expect(redirect.verifyingKey()).resolves.toEqual(signing);
    const reads = kept.reads;
    await redirect.verifyingKey();
    expect(kept.reads).toBe(reads);
  });
});

describe('preview fetchers', () => {
  it.each([
    'WhatsApp/2.23.20.0 A',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Facebot',
    'Twitterbot/1.0',
    'Slackbot-LinkExpanding 1.0',
    'TelegramBot (like TwitterBot)',
    'Mozilla/5.0 (compatible; Discordbot/2.0)',
    'LinkedInBot/1.0',
    'Mozilla/5.0 (compatible; Googlebot/2.1)',
    'Mozilla/5.0 (compatible; bingbot/2.0)',
    '',
    undefined,
  ])('%s is a preview fetcher', (agent) => {
    expect(isPreviewFetcher(agent)).toBe(true);
  });
  it.each([
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Linux; Android 14) Chrome/120.0 Mobile Safari/537.36',
  ])('%s is a person', (agent) => {
    expect(isPreviewFetcher(agent)).toBe(false);
  });
});

describe('trackedUrl in a request', () => {
  const parse = (buttons: unknown) => v.safeParse(buttonsSchema, buttons);
  it('takes an https URL up to 2,000 characters, and names the field otherwise', () => {
    expect(parse([{ index: 0, type: 'url', trackedUrl: 'https://shop.example/p/42?utm_source=wa' }]).success).toBe(true);
    const http = parse([{ index: 0, type: 'url', trackedUrl: 'http://shop.example/p/42' }]);
    expect(http.success).toBe(false);
    expect(v.flatten(http.issues!).nested).toEqual({ '0.trackedUrl': [expect.stringMatching(/https/)] });
    const long = parse([{ index: 0, type: 'url', trackedUrl: `https://shop.example/${'x'.repeat(2_000)}` }]);
    expect(v.flatten(long.issues!).nested?.['0.trackedUrl']?.[0]).toMatch(/2000/);
    expect(parse([{ index: 0, type: 'url', trackedUrl: 'https://shop.example/', text: 'A-1' }]).success).toBe(false);
    expect(parse([{ index: 0, type: 'url', text: 'A-1' }]).success).toBe(true);
  });
});

describe('a tracked template button', () => {
  const template = (url: string) => ({
    components: [
      { type: 'BODY', text: 'Hi {{1}}' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'See', url }] },
    ],
  });
  const base = 'https://links.example/l';
  const source = { templateLabel: 'template new_arrivals', ownPrefix: 'data[0].' };

  it('is marked tracked only when its URL is {clickBaseUrl}/r/{{1}}', () => {
    expect(requirementsOf({ ...template(`${base}/r/{{1}}`), clickBaseUrl: base }).buttons?.[0]).toEqual(expect.objectContaining({ tracked: true }));
    expect(requirementsOf({ ...template('https://shop.example/p/{{1}}'), clickBaseUrl: base }).buttons?.[0]?.tracked).toBeUndefined();
    expect(requirementsOf(template(`${base}/r/{{1}}`)).buttons?.[0]?.tracked).toBeUndefined();
  });

  it('takes trackedUrl or text; another URL button refuses trackedUrl by name', () => {
    const tracked = requirementsOf({ ...template(`${base}/r/{{1}}`), clickBaseUrl: base });
    const plain = requirementsOf({ ...template('https://shop.example/p/{{1}}'), clickBaseUrl: base });
    const now = new Date();
    expect(() => checkTemplateContent(tracked, { buttons: [{ index: 0, type: 'url', trackedUrl: 'https://shop.example/p/42' }] }, source, now)).not.toThrow();
    expect(() => checkTemplateContent(tracked, { buttons: [{ index: 0, type: 'url', text: 'own-suffix' }] }, source, now)).not.toThrow();
    expect(() => checkTemplateContent(plain, { buttons: [{ index: 0, type: 'url', trackedUrl: 'https://shop.example/p/42' }] }, source, now)).toThrow(
      /buttons\[0\]\.trackedUrl is not expected/,
    );
  });

  it("sends the token in place of the destination, job scope for the broadcast's, recipient scope for a recipient's own", () => {
    const where = { jobId: 'pub_1', chunkIndex: 0, index: 7 };
    const sent = withTrackedTokens(
      key,
      { buttons: [{ index: 0, type: 'url', trackedUrl: 'https://a.example/' }] },
      { buttons: [{ index: 1, type: 'url', trackedUrl: 'https://b.example/' }] },
      where,
    );
    const [jobButton] = sent.template!.buttons!;
    const [ownButton] = sent.recipient!.buttons!;
    expect(JSON.stringify(sent)).not.toContain('example');
    expect(readClickToken(key, (jobButton as { text: string }).text)).toEqual({ ...where, buttonIndex: 0, scope: 'job' });
    expect(readClickToken(key, (ownButton as { text: string }).text)).toEqual({ ...where, buttonIndex: 1, scope: 'recipient' });
  });
});
