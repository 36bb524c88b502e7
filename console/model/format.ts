/** How numbers, times and money read on the pages (the browser's locale, UTC never assumed). */

/**
 * A count with the locale's grouping.
 *
 * @example
 * formatCount(1001); // '1,001' in English
 */
export const formatCount = (value: number): string => new Intl.NumberFormat().format(value);

/**
 * An ISO time in the reader's zone; '—' for none.
 *
 * @example
 * formatTime(null); // '—'
 */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A decimal amount as the API sends it (a string, no float rounding) with its currency.
 *
 * @example
 * formatMoney('12.3400', 'EUR'); // '12.3400 EUR'
 */
export const formatMoney = (amount: string, currency: string): string => `${amount} ${currency}`;

/**
 * A recipient's address as the list gives it: the number with its country code, or the user id.
 *
 * @example
 * addressOf({ countryCode: '49', toPhoneNumber: '1701234567' }); // '+49 1701234567'
 */
export const addressOf = (row: { countryCode: string; toPhoneNumber: string; userId?: string }): string =>
  row.userId ?? (row.countryCode ? `+${row.countryCode} ${row.toPhoneNumber}` : row.toPhoneNumber);
