import { templateMessageBody } from '../../../shared/sending/message-bodies';

describe('templateMessageBody', () => {
  it('carries the body parameters in order', () => {
    expect(templateMessageBody({ name: 'order_update', language: 'en_US' }, { to: '919800000001', parameters: ['Ana', '#42'] })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919800000001',
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ana' },
              { type: 'text', text: '#42' },
            ],
          },
        ],
      },
    });
  });

  it('has no components without parameters', () => {
    const body = templateMessageBody({ name: 'hello', language: 'pt_BR' }, { to: '919800000001', parameters: [] });
    expect(body.template).toEqual({ name: 'hello', language: { code: 'pt_BR' } });
    expect('components' in body.template).toBe(false);
  });
});
