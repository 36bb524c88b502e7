/**
 * Formats a digits-only number the way Graph shows `display_phone_number` ("+1 555-000-1001").
 * The result always strips back to the same digits, which is what clients rely on.
 */

/** ITU country calling codes that are one or two digits long; every other code has three. */
const ONE_DIGIT_CODES = new Set(['1', '7']);
const TWO_DIGIT_CODES = new Set([
  '20',
  '27',
  '30',
  '31',
  '32',
  '33',
  '34',
  '36',
  '39',
  '40',
  '41',
  '43',
  '44',
  '45',
  '46',
  '47',
  '48',
  '49',
  '51',
  '52',
  '53',
  '54',
  '55',
  '56',
  '57',
  '58',
  '60',
  '61',
  '62',
  '63',
  '64',
  '65',
  '66',
  '81',
  '82',
  '84',
  '86',
  '90',
  '91',
  '92',
  '93',
  '94',
  '95',
  '98',
]);

export function countryCallingCode(digits: string): string {
  if (ONE_DIGIT_CODES.has(digits.slice(0, 1))) return digits.slice(0, 1);
  if (TWO_DIGIT_CODES.has(digits.slice(0, 2))) return digits.slice(0, 2);
  return digits.slice(0, 3);
}

export function formatDisplayPhoneNumber(digits: string): string {
  const code = countryCallingCode(digits);
  const national = digits.slice(code.length);
  if (code === '1' && national.length === 10) {
    return `+1 ${national.slice(0, 3)}-${national.slice(3, 6)}-${national.slice(6)}`;
  }
  // Elsewhere Meta follows each country's grouping; a four-digit tail after groups of three
  // reads naturally for most numbering plans and needs no per-country table.
  if (national.length <= 4) return `+${code} ${national}`.trimEnd();
  const groups: string[] = [];
  const head = national.slice(0, -4);
  for (let index = 0; index < head.length; index += 3) groups.push(head.slice(index, index + 3));
  const last = groups[groups.length - 1] ?? '';
  if (groups.length > 1 && last.length === 1) groups.splice(-2, 2, `${groups[groups.length - 2] ?? ''}${last}`);
  groups.push(national.slice(-4));
  return `+${code} ${groups.join(' ')}`;
}

/**
 * ISO 3166 alpha-2 by calling code, for the `country` dimension of analytics. Shared codes go to
 * their largest member (1 → US, 7 → RU); codes missing here report "ZZ", Meta's unknown region.
 */
const COUNTRY_BY_CALLING_CODE: Record<string, string> = {
  '1': 'US',
  '7': 'RU',
  '20': 'EG',
  '27': 'ZA',
  '30': 'GR',
  '31': 'NL',
  '32': 'BE',
  '33': 'FR',
  '34': 'ES',
  '36': 'HU',
  '39': 'IT',
  '40': 'RO',
  '41': 'CH',
  '43': 'AT',
  '44': 'GB',
  '45': 'DK',
  '46': 'SE',
  '47': 'NO',
  '48': 'PL',
  '49': 'DE',
  '51': 'PE',
  '52': 'MX',
  '54': 'AR',
  '55': 'BR',
  '56': 'CL',
  '57': 'CO',
  '58': 'VE',
  '60': 'MY',
  '61': 'AU',
  '62': 'ID',
  '63': 'PH',
  '64': 'NZ',
  '65': 'SG',
  '66': 'TH',
  '81': 'JP',
  '82': 'KR',
  '84': 'VN',
  '86': 'CN',
  '90': 'TR',
  '91': 'IN',
  '92': 'PK',
  '234': 'NG',
  '254': 'KE',
  '351': 'PT',
  '353': 'IE',
  '880': 'BD',
  '966': 'SA',
  '971': 'AE',
  '972': 'IL',
};

export function countryOf(digits: string): string {
  return COUNTRY_BY_CALLING_CODE[countryCallingCode(digits)] ?? 'ZZ';
}
