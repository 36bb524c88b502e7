/** The attribute mapping of a campaign's template values (shared/campaigns/campaign-values.ts). */
import { isValueReference, referencesOf, renderMemberSend, substituteReferences } from '../../../shared/campaigns/campaign-values';

const member = (attributes: Record<string, string | number | boolean>) => ({ attributes });

describe('value references', () => {
  it('is an object of attribute and an optional fallback only, with a valid name', () => {
    expect(isValueReference({ attribute: 'first_name' })).toBe(true);
    expect(isValueReference({ attribute: 'first_name', fallback: 'there' })).toBe(true);
    expect(isValueReference({ attribute: 'first-name' })).toBe(false);
    expect(isValueReference({ attribute: 'x', fallback: '' })).toBe(false);
    expect(isValueReference({ attribute: 'x', other: 1 })).toBe(false);
    expect(isValueReference(['attribute'])).toBe(false);
    expect(isValueReference('first_name')).toBe(false);
    expect(isValueReference(null)).toBe(false);
  });

  it('lists every reference with its path', () => {
    const found = referencesOf({
      templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'SPRING25'],
      header: { type: 'text', text: { attribute: 'city' } },
      buttons: [{ index: 0, type: 'url', text: { attribute: 'coupon' } }],
      carousel: [{ header: { type: 'image', link: 'https://cdn.example.com/a.jpg' }, templateParams: [{ attribute: 'product' }] }],
    });
    expect(found).toEqual([
      { path: ['templateParams', 0], reference: { attribute: 'first_name', fallback: 'there' } },
      { path: ['header', 'text'], reference: { attribute: 'city' } },
      { path: ['buttons', 0, 'text'], reference: { attribute: 'coupon' } },
      { path: ['carousel', 0, 'templateParams', 0], reference: { attribute: 'product' } },
    ]);
  });

  it('substitutes with the fill, naming the first reference left without a value', () => {
    const values = { templateParams: [{ attribute: 'a' }, { attribute: 'b' }, 'x'] };
    expect(substituteReferences(values, (reference) => reference.attribute.toUpperCase())).toEqual({ value: { templateParams: ['A', 'B', 'x'] } });
    expect(substituteReferences(values, () => undefined).missing).toBe('a');
    // The values given are not changed.
    expect(values.templateParams[0]).toEqual({ attribute: 'a' });
  });
});

describe('renderMemberSend', () => {
  it('fills positional values from the member, literals as they are', () => {
    expect(renderMemberSend({ templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'SPRING25'] }, member({ first_name: 'Ada' }))).toEqual({
      parameters: ['Ada', 'SPRING25'],
    });
  });

  it('fills named values', () => {
    expect(renderMemberSend({ templateParams: { first_name: { attribute: 'first_name' }, code: 'SPRING25' } }, member({ first_name: 'Grace' }))).toEqual({
      parameters: { first_name: 'Grace', code: 'SPRING25' },
    });
  });

  it('uses the fallback when the attribute is absent or blank', () => {
    const values = { templateParams: [{ attribute: 'first_name', fallback: 'there' }] };
    expect(renderMemberSend(values, member({}))).toEqual({ parameters: ['there'] });
    expect(renderMemberSend(values, member({ first_name: '  ' }))).toEqual({ parameters: ['there'] });
  });

  it('writes numbers and booleans out', () => {
    expect(
      renderMemberSend(
        { templateParams: [{ attribute: 'points' }, { attribute: 'vip' }, { attribute: 'ratio' }] },
        member({ points: 1200, vip: false, ratio: 0.5 }),
      ),
    ).toEqual({
      parameters: ['1200', 'false', '0.5'],
    });
  });

  it('skips a member without the attribute and without a fallback as MISSING_ATTRIBUTE, naming the attribute', () => {
    expect(renderMemberSend({ templateParams: ['x', { attribute: 'city' }] }, member({ first_name: 'Ada' }))).toEqual({
      skipped: 'MISSING_ATTRIBUTE',
      attribute: 'city',
    });
  });

  it('fills header, buttons and carousel references', () => {
    const sent = renderMemberSend(
      {
        templateParams: [{ attribute: 'first_name' }],
        header: { type: 'text', text: { attribute: 'city', fallback: 'your city' } },
        buttons: [
          { index: 0, type: 'url', text: { attribute: 'coupon' } },
          { index: 1, type: 'quick_reply', payload: 'STOP' },
        ],
        carousel: [{ header: { type: 'image', link: 'https://cdn.example.com/a.jpg' }, templateParams: [{ attribute: 'product' }] }],
      },
      member({ first_name: 'Ada', coupon: 'A-17', product: 'Linen shirt' }),
    );
    expect(sent).toEqual({
      parameters: ['Ada'],
      content: {
        header: { type: 'text', text: 'your city' },
        buttons: [
          { index: 0, type: 'url', text: 'A-17' },
          { index: 1, type: 'quick_reply', payload: 'STOP' },
        ],
        carousel: [{ header: { type: 'image', link: 'https://cdn.example.com/a.jpg' }, templateParams: ['Linen shirt'] }],
      },
    });
  });

  it('fills a limited-time offer expiry', () => {
    const sent = renderMemberSend(
      { templateParams: [], limitedTimeOffer: { expiresAt: { attribute: 'offer_ends' } } },
      member({ offer_ends: '2026-12-31T23:59:59Z' }),
    );
    expect(sent).toEqual({ parameters: [], content: { limitedTimeOffer: { expiresAt: '2026-12-31T23:59:59Z' } } });
  });

  it('skips a value Meta would refuse once filled as INVALID_PARAMETER, with the field and the rule', () => {
    expect(renderMemberSend({ templateParams: ['x', { attribute: 'bio' }] }, member({ bio: 'b'.repeat(1025) }))).toEqual({
      skipped: 'INVALID_PARAMETER',
      field: 'templateParams[1]',
      rule: 'values must be at most 1024 characters',
    });
    expect(renderMemberSend({ templateParams: [], header: { type: 'text', text: { attribute: 'city' } } }, member({ city: 'c'.repeat(61) }))).toEqual({
      skipped: 'INVALID_PARAMETER',
      field: 'header.text',
      rule: 'must be at most 60 characters',
    });
    expect(renderMemberSend({ buttons: [{ index: 0, type: 'copy_code', couponCode: { attribute: 'code' } }] }, member({ code: 'C'.repeat(21) }))).toEqual({
      skipped: 'INVALID_PARAMETER',
      field: 'buttons[0].couponCode',
      rule: 'must be at most 20 characters',
    });
    expect(renderMemberSend({ templateParams: { name: { attribute: 'name' } } }, member({ name: '\uFFFE' }))).toMatchObject({
      skipped: 'INVALID_PARAMETER',
      field: 'templateParams.name',
    });
  });
});
