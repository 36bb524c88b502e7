/** CSV as the API's downloads write it (recipients lists, audience members): one field at a time. */

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; null is empty. A
 * leading = + - @ would be read as a formula by spreadsheet programs: kept as text with a quote mark.
 *
 * @example
 * csvField('Pune, MH'); // '"Pune, MH"'
 * csvField('=SUM(A1)'); // "'=SUM(A1)"
 */
export const csvField = (value: string | null | undefined): string => {
  if (value === null || value === undefined) return '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
