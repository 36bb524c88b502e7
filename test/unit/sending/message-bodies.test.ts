import { templateMessageBody } from '../../../shared/sending/message-bodies';

describe('templateMessageBody', () => {
  it('carries the body parameters in order', () => {
    expect(templateMessageBody('919800000001', { name: 'order_update', language: 'en_US' }, ['Ana', '#42'])).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919800000001',
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: '#42' }] }],
      },
    });
  });

  it('has no components without parameters', () => {
    const body = templateMessageBody('919800000001', { name: 'hello', language: 'pt_BR' }, []);
    expect(body.template).toEqual({ name: 'hello', language: { code: 'pt_BR' } });
    expect('components' in body.template).toBe(false);
  });
});
