/** Who of a campaign's audiences it sends to (shared/campaigns/audience-filter.ts). */
import * as v from 'valibot';
import { audienceFilterSchema, audienceSpecSchema, memberMatches, type AudienceFilter } from '../../../shared/campaigns/audience-filter';

const member = (tags: string[], attributes: Record<string, string | number | boolean> = {}) => ({ tags, attributes });
const filter = (input: unknown): AudienceFilter => v.parse(audienceFilterSchema, input);

describe('memberMatches', () => {
  it('lets everyone through without a filter', () => {
    expect(memberMatches(undefined, member([]))).toBe(true);
    expect(memberMatches(filter({}), member([]))).toBe(true);
  });

  it('tags: any, all, none', () => {
    expect(memberMatches(filter({ tags: { any: ['vip', 'gold'] } }), member(['gold']))).toBe(true);
    expect(memberMatches(filter({ tags: { any: ['vip', 'gold'] } }), member(['new']))).toBe(false);
    expect(memberMatches(filter({ tags: { all: ['vip', 'gold'] } }), member(['vip', 'gold', 'new']))).toBe(true);
    expect(memberMatches(filter({ tags: { all: ['vip', 'gold'] } }), member(['vip']))).toBe(false);
    expect(memberMatches(filter({ tags: { none: ['churned'] } }), member(['vip']))).toBe(true);
    expect(memberMatches(filter({ tags: { none: ['churned'] } }), member(['vip', 'churned']))).toBe(false);
    expect(memberMatches(filter({ tags: { any: ['vip'], none: ['churned'] } }), member(['vip', 'churned']))).toBe(false);
  });

  it('tags compare without case (the filter is lower-cased as members\u2019 tags are)', () => {
    expect(memberMatches(filter({ tags: { any: ['VIP'] } }), member(['vip']))).toBe(true);
  });

  it('attributes: in and notIn, case-insensitive for strings, numbers and booleans as text', () => {
    const cities = filter({ attributes: { city: { in: ['Pune', 'Mumbai'] } } });
    expect(memberMatches(cities, member([], { city: 'pune' }))).toBe(true);
    expect(memberMatches(cities, member([], { city: ' MUMBAI ' }))).toBe(true);
    expect(memberMatches(cities, member([], { city: 'Delhi' }))).toBe(false);
    expect(memberMatches(cities, member([]))).toBe(false);
    const notDelhi = filter({ attributes: { city: { notIn: ['delhi'] } } });
    expect(memberMatches(notDelhi, member([], { city: 'Delhi' }))).toBe(false);
    expect(memberMatches(notDelhi, member([], { city: 'Pune' }))).toBe(true);
    expect(memberMatches(notDelhi, member([]))).toBe(true);
    expect(memberMatches(filter({ attributes: { tier: { in: [2, true] } } }), member([], { tier: 2 }))).toBe(true);
    expect(memberMatches(filter({ attributes: { tier: { in: [2, true] } } }), member([], { tier: true }))).toBe(true);
    expect(memberMatches(filter({ attributes: { tier: { in: [2] } } }), member([], { tier: 3 }))).toBe(false);
  });

  it('attributes: exists', () => {
    expect(memberMatches(filter({ attributes: { email: { exists: true } } }), member([], { email: 'a@example.com' }))).toBe(true);
    expect(memberMatches(filter({ attributes: { email: { exists: true } } }), member([]))).toBe(false);
    expect(memberMatches(filter({ attributes: { email: { exists: false } } }), member([]))).toBe(true);
    expect(memberMatches(filter({ attributes: { email: { exists: false } } }), member([], { email: 'a@example.com' }))).toBe(false);
  });

  it('every test must pass: tags and attributes together', () => {
    const both = filter({ tags: { any: ['vip'] }, attributes: { city: { in: ['Pune'] } } });
    expect(memberMatches(both, member(['vip'], { city: 'Pune' }))).toBe(true);
    expect(memberMatches(both, member(['vip'], { city: 'Goa' }))).toBe(false);
    expect(memberMatches(both, member([], { city: 'Pune' }))).toBe(false);
  });
});

describe('audienceSpecSchema', () => {
  const issue = (input: unknown) => {
    const result = v.safeParse(audienceSpecSchema, input);
    return result.success ? undefined : { path: v.getDotPath(result.issues[0]), message: result.issues[0].message };
  };

  it('accepts saved audiences and contacts, with a filter and exclusions', () => {
    expect(issue({ audienceIds: ['aud_01', 'contacts'], excludeAudienceIds: ['aud_02'], filter: { tags: { any: ['vip'] } } })).toBeUndefined();
  });

  it('names the field, the rule and the index', () => {
    expect(issue({ audienceIds: [] })).toEqual({ path: 'audienceIds', message: 'must name at least one audience' });
    expect(issue({ audienceIds: ['aud_01', 'people'] })).toEqual({ path: 'audienceIds.1', message: 'must be an audience id (aud_…) or contacts' });
    expect(issue({ audienceIds: ['aud_01', 'aud_01'] })?.message).toBe('audienceIds must not repeat an audience');
    expect(issue({ audienceIds: ['aud_01'], excludeAudienceIds: ['aud_01'] })?.message).toBe('excludeAudienceIds must not name an audience of audienceIds');
    expect(issue({ audienceIds: ['aud_01'], filter: { attributes: { 'first-name': { exists: true } } } })?.message).toMatch(/must be an attribute name/);
    expect(issue({ audienceIds: ['aud_01'], filter: { attributes: { city: { in: [] } } } })).toEqual({
      path: 'filter.attributes.city.in',
      message: 'must name at least one value',
    });
    expect(issue({ audienceIds: Array.from({ length: 21 }, (_, index) => `aud_${index}`) })?.message).toBe('must name at most 20 audiences in all');
  });
});
