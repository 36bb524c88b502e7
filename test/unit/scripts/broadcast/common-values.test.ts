/** The options that give every row a value, read before any request: their form, and the columns they stand for. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commonValuesOf, extractParamOptions, optionNameOf } from '../../../../scripts/broadcast/common-values';
import { CliUsageError } from '../../../../scripts/broadcast/errors';

const directory = mkdtempSync(join(tmpdir(), 'common-values-'));
const now = new Date('2026-03-01T09:00:00Z');

describe('extractParamOptions', () => {
  it('takes --param-<name> <value> and --param-<name>=<value> out of argv, leaving the rest in order', () => {
    expect(extractParamOptions(['send', '--param-first_name', 'Ada', '--csv', 'a.csv', '--param-store=Covent Garden, London'])).toEqual({
      argv: ['send', '--csv', 'a.csv'],
      params: { first_name: 'Ada', store: 'Covent Garden, London' },
    });
  });

  it('refuses a missing value, a name Meta would not give, and a name given twice', () => {
    expect(() => extractParamOptions(['--param-first_name'])).toThrow(new CliUsageError('--param-first_name needs a value (--param-first_name <value>)'));
    expect(() => extractParamOptions(['--param-first_name', '--csv', 'a.csv'])).toThrow(/needs a value/);
    expect(() => extractParamOptions(['--param-First', 'Ada'])).toThrow(
      new CliUsageError('--param-First: a named parameter is lowercase letters, digits and underscores, starting with a letter (--param-first_name)'),
    );
    expect(() => extractParamOptions(['--param-a=1', '--param-a=2'])).toThrow(new CliUsageError('--param-a is given twice'));
  });
});

describe('optionNameOf', () => {
  it('names the option standing for a column', () => {
    expect(['headerLink', 'headerMediaId', 'headerLatitude', 'button0', 'button9', 'first_name'].map(optionNameOf)).toEqual([
      '--header-link',
      '--header-media-id',
      '--header-latitude',
      '--button0',
      '--button9',
      '--param-first_name',
    ]);
  });
});

describe('commonValuesOf', () => {
  it("gives the options' values by the column each stands for", () => {
    const options = { 'header-link': 'https://cdn.example/a.jpg', 'header-filename': ' Invoice.pdf ', button0: 'A-17', button3: 'STOP', csv: 'march.csv' };
    expect(commonValuesOf(options, { store: 'Soho' }, directory, now)).toEqual({
      columns: { headerLink: 'https://cdn.example/a.jpg', headerFilename: 'Invoice.pdf', button0: 'A-17', button3: 'STOP', store: 'Soho' },
    });
  });

  it('refuses empty values, naming each option', () => {
    expect(() => commonValuesOf({ 'header-text': ' ', button1: '' }, { store: '' }, directory, now)).toThrow(
      new CliUsageError('--header-text must not be empty\n--button1 must not be empty\n--param-store must not be empty'),
    );
  });

  it('--limited-time-offer: an ISO 8601 time with an offset, in the future', () => {
    expect(commonValuesOf({ 'limited-time-offer': '2026-03-08T23:59:59+01:00' }, {}, directory, now).limitedTimeOffer).toBe('2026-03-08T23:59:59+01:00');
    expect(() => commonValuesOf({ 'limited-time-offer': '2026-03-08' }, {}, directory, now)).toThrow(
      /^--limited-time-offer: limitedTimeOffer\.expiresAt must be an ISO 8601 date and time with a UTC offset or Z/,
    );
    expect(() => commonValuesOf({ 'limited-time-offer': '2026-02-28T09:00:00Z' }, {}, directory, now)).toThrow(
      new CliUsageError('--limited-time-offer: limitedTimeOffer.expiresAt must be in the future (2026-02-28T09:00:00Z has passed)'),
    );
  });

  it('--carousel-file: reads the JSON array of cards; names a file it cannot read, that is not JSON or not an array', () => {
    writeFileSync(join(directory, 'cards.json'), JSON.stringify([{ templateParams: ['Boots'] }, { templateParams: ['Scarf'] }]));
    writeFileSync(join(directory, 'broken.json'), '[{');
    writeFileSync(join(directory, 'object.json'), '{"cards": []}');
    expect(commonValuesOf({ 'carousel-file': 'cards.json' }, {}, directory, now).carousel).toEqual({
      path: 'cards.json',
      cards: [{ templateParams: ['Boots'] }, { templateParams: ['Scarf'] }],
    });
    expect(() => commonValuesOf({ 'carousel-file': 'missing.json' }, {}, directory, now)).toThrow(/^cannot read --carousel-file .*missing\.json: ENOENT$/);
    expect(() => commonValuesOf({ 'carousel-file': 'broken.json' }, {}, directory, now)).toThrow(/^--carousel-file broken\.json is not valid JSON: /);
    expect(() => commonValuesOf({ 'carousel-file': 'object.json' }, {}, directory, now)).toThrow(
      /^--carousel-file object\.json must hold a JSON array of cards/,
    );
  });
});
