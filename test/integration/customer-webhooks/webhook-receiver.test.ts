import { startWebhookReceiver, summaryOf } from '../../../scripts/webhook-receiver';
import { signCustomerEvent } from '../../../shared/customer-events/signing';

describe('npm run webhook-receiver', () => {
  it('prints verified events one per line and answers 401 to a bad signature', async () => {
    const printed: string[] = [];
    const warned: string[] = [];
    const receiver = await startWebhookReceiver({ secret: 'whsec_cli', port: 0, print: (line) => printed.push(line), warn: (line) => warned.push(line) });
    try {
      const event = { id: 'evt_cli', type: 'message.status' as const, createdAt: new Date().toISOString(), data: { status: 'read' } };
      const signed = signCustomerEvent('whsec_cli', event, new Date());
      const good = await fetch(receiver.url, { method: 'POST', headers: signed.headers, body: signed.body });
      expect(good.status).toBe(204);
      const forged = signCustomerEvent('not the secret', event, new Date());
      const bad = await fetch(receiver.url, { method: 'POST', headers: forged.headers, body: forged.body });
      expect(bad.status).toBe(401);
      const tampered = await fetch(receiver.url, { method: 'POST', headers: signed.headers, body: signed.body.replace('read', 'sent') });
      expect(tampered.status).toBe(401);
      expect(printed).toEqual([`${event.createdAt} message.status evt_cli {"status":"read"}`]);
      expect(warned).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('puts the status first so a cut line still shows it, and --full prints every field', () => {
    const data = { jobId: 'pub_1', chunkIndex: 0, recipientIndex: 7, recipient: '447700900123', messageId: `wamid.${'x'.repeat(150)}`, status: 'delivered' };
    const line = summaryOf(data, false);
    expect(line.startsWith('{"status":"delivered","jobId":"pub_1","recipient":"447700900123"')).toBe(true);
    expect(line).toHaveLength(160);
    expect(JSON.parse(summaryOf(data, true))).toEqual(data);
  });
});
