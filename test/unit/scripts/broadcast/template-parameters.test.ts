/** The template list's `parameters`, read defensively: absent on an older service, refused when not sendable or unreadable. */
import { TemplateChoiceError } from '../../../../scripts/broadcast/errors';
import { templateParametersOf } from '../../../../scripts/broadcast/template-parameters';
import { catalogPromo, orderShipped } from '../../../support/rich-template-records';

describe('templateParametersOf', () => {
  it('is undefined for a template listed without parameters (an older service)', () => {
    expect(templateParametersOf({ name: 'order_update', language: 'en_US' })).toBeUndefined();
  });

  it('reads the parameters, keeping fields it does not know', () => {
    expect(templateParametersOf({ ...orderShipped, parameters: { ...(orderShipped.parameters as object), future: 1 } })).toMatchObject({
      sendable: true,
      header: { type: 'IMAGE' },
      body: { format: 'POSITIONAL', count: 2 },
      buttons: [{ index: 0, type: 'URL', dynamic: true }],
    });
  });

  it("refuses a template that is not sendable, with the service's reasons", () => {
    expect(() => templateParametersOf(catalogPromo)).toThrow(
      new TemplateChoiceError('template catalog_promo (en) cannot be sent by a broadcast: buttons[2]: CATALOG buttons cannot be filled by a broadcast'),
    );
    expect(() => templateParametersOf({ name: 'x', language: 'en', parameters: { sendable: false } })).toThrow(
      'template x (en) cannot be sent by a broadcast: the service gives no reason',
    );
  });

  it('refuses parameters it cannot read, naming the field', () => {
    expect(() => templateParametersOf({ name: 'x', language: 'en', parameters: { sendable: true, body: { format: 'POSITIONAL', count: 'two' } } })).toThrow(
      /^the service describes template x \(en\) in a way this CLI cannot read: parameters\.body\.count must be number/,
    );
  });
});
