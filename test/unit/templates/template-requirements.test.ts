/**
 * What a send of a template must carry, read from Meta's GET shape (template-components.md §7):
 * every component kind, positional and named bodies, dynamic and static buttons, the limits left
 * for a variable's value, and the parts a broadcast cannot fill (`sendable: false`, not hidden).
 */
import { requirementsOf } from '../../../shared/templates/template-requirements';

const body = (text: string) => ({ type: 'BODY', text });
const buttons = (...list: Array<Record<string, unknown>>) => ({ type: 'BUTTONS', buttons: list });

describe('requirementsOf', () => {
  it('counts positional placeholders by the highest number, and none for a body without variables', () => {
    expect(requirementsOf({ components: [body('Hi {{1}}, order {{2}} ships {{ 3 }}')] })).toEqual({ sendable: true, body: { format: 'POSITIONAL', count: 3 } });
    expect(requirementsOf({ components: [body('No variables')] })).toEqual({ sendable: true, body: { format: 'POSITIONAL', count: 0 } });
    expect(requirementsOf({ components: [] })).toEqual({ sendable: true, body: { format: 'POSITIONAL', count: 0 } });
  });

  it('lists the names of a named template (parameter_format NAMED, or named variables in an older answer), each once', () => {
    const named = { parameter_format: 'NAMED', components: [body('Hi {{first_name}}, welcome to {{store}}, {{first_name}}!')] };
    expect(requirementsOf(named).body).toEqual({ format: 'NAMED', names: ['first_name', 'store'] });
    expect(requirementsOf({ components: [body('Hi {{first_name}}')] }).body).toEqual({ format: 'NAMED', names: ['first_name'] });
    expect(requirementsOf({ parameter_format: 'named', components: [body('Hello')] }).body).toEqual({ format: 'NAMED', names: [] });
  });

  it.each([
    ['IMAGE', { type: 'IMAGE' }],
    ['VIDEO', { type: 'VIDEO' }],
    ['DOCUMENT', { type: 'DOCUMENT' }],
    ['LOCATION', { type: 'LOCATION' }],
  ])('a %s header must be given whole', (format, header) => {
    expect(requirementsOf({ components: [{ type: 'HEADER', format }, body('x')] }).header).toEqual(header);
  });

  it('a text header takes a value only with a variable, at most what is left of 60 characters', () => {
    expect(requirementsOf({ components: [{ type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' }] }).header).toEqual({
      type: 'TEXT',
      dynamic: true,
      maxLength: 54,
    });
    expect(requirementsOf({ components: [{ type: 'HEADER', format: 'TEXT', text: 'Sale' }] }).header).toEqual({ type: 'TEXT', dynamic: false });
    expect(requirementsOf({ parameter_format: 'NAMED', components: [{ type: 'HEADER', format: 'TEXT', text: 'Hi {{sale_name}}' }] }).header).toEqual({
      type: 'TEXT',
      dynamic: true,
      name: 'sale_name',
      maxLength: 57,
    });
  });

  it('buttons by position: a URL with a variable and a copy code take a value, quick replies and phone numbers do not', () => {
    const template = {
      components: [
        body('x'),
        buttons(
          { type: 'URL', text: 'Track', url: 'https://shop.example/track/{{1}}' },
          { type: 'URL', text: 'Home', url: 'https://shop.example' },
          { type: 'COPY_CODE', example: 'SUMMER20' },
          { type: 'QUICK_REPLY', text: 'Stop' },
          { type: 'PHONE_NUMBER', text: 'Call', phone_number: '15550051310' },
        ),
      ],
    };
    expect(requirementsOf(template).buttons).toEqual([
      { index: 0, type: 'URL', dynamic: true, maxLength: 2000 - 'https://shop.example/track/'.length },
      { index: 1, type: 'URL', dynamic: false },
      { index: 2, type: 'COPY_CODE', dynamic: true, maxLength: 20 },
      { index: 3, type: 'QUICK_REPLY', dynamic: false },
      { index: 4, type: 'PHONE_NUMBER', dynamic: false },
    ]);
  });

  it('a limited-time offer: its expiry and an offer code of at most 15 characters', () => {
    const template = {
      components: [
        { type: 'LIMITED_TIME_OFFER', limited_time_offer: { text: 'Flash deal!', has_expiration: true } },
        body('{{1}}, ends soon'),
        buttons({ type: 'COPY_CODE', example: 'FLASH15' }),
      ],
    };
    expect(requirementsOf(template)).toEqual({
      sendable: true,
      body: { format: 'POSITIONAL', count: 1 },
      buttons: [{ index: 0, type: 'COPY_CODE', dynamic: true, maxLength: 15 }],
      limitedTimeOffer: { hasExpiration: true },
    });
  });

  it('a carousel: the number of cards and what each card needs (the first card describes them all)', () => {
    const card = {
      components: [
        { type: 'HEADER', format: 'VIDEO' },
        body('{{1}} {{2}}'),
        buttons({ type: 'QUICK_REPLY', text: 'More' }, { type: 'URL', text: 'Buy', url: 'https://x.example/{{1}}' }),
      ],
    };
    expect(requirementsOf({ components: [body('Picks for {{1}}'), { type: 'CAROUSEL', cards: [card, card, card] }] }).carousel).toEqual({
      cards: 3,
      header: { type: 'VIDEO' },
      body: { format: 'POSITIONAL', count: 2 },
      buttons: [
        { index: 0, type: 'QUICK_REPLY', dynamic: false },
        { index: 1, type: 'URL', dynamic: true, maxLength: 2000 - 'https://x.example/'.length },
      ],
    });
  });

  it('marks what a broadcast cannot fill as not sendable, naming each part, instead of hiding the template', () => {
    const template = {
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'PRODUCT' },
        body('x'),
        buttons({ type: 'QUICK_REPLY', text: 'A' }, { type: 'CATALOG', text: 'View' }, { type: 'MPM', text: 'Pick' }),
      ],
    };
    const requirements = requirementsOf(template);
    expect(requirements.sendable).toBe(false);
    expect(requirements.unsupported).toEqual([
      'header: PRODUCT headers cannot be filled by a broadcast',
      'buttons[1]: CATALOG buttons cannot be filled by a broadcast (catalog buttons need a product thumbnail)',
      'buttons[2]: MPM buttons cannot be filled by a broadcast (multi-product buttons need product sections)',
    ]);
    expect(
      requirementsOf({
        category: 'AUTHENTICATION',
        components: [body('{{1}} is your code'), buttons({ type: 'URL', otp_type: 'COPY_CODE', url: 'https://x/{{1}}' })],
      }).sendable,
    ).toBe(false);
  });
});
