import { InvalidTenancyInputError } from './errors';

/** Micro-units per currency unit. */
export const microsPerUnit = 1_000_000;

/**
 * Parses a non-negative decimal amount ("500", "0.0085") into integer micro-units without
 * going through floating point, so "0.1" is exactly 100,000.
 */
export function parseDecimalToMicros(amount: string, field = 'amount'): number {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(amount.trim());
  if (!match) throw new InvalidTenancyInputError(`${field} must be a non-negative decimal with at most 6 fractional digits`);
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(6, '0'));
  const micros = whole * microsPerUnit + fraction;
  if (!Number.isSafeInteger(micros)) throw new InvalidTenancyInputError(`${field} is too large`);
  return micros;
}

/** "500.00", "0.0085": at least two decimals, no trailing zeros beyond them. */
export function formatMicros(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const absolute = Math.abs(micros);
  const whole = Math.floor(absolute / microsPerUnit);
  const fraction = String(absolute % microsPerUnit)
    .padStart(6, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `${sign}${whole}.${fraction}`;
}
