/**
 * Zones the send-window tests draw from: the ordinary (UTC, India with no daylight saving), the
 * northern and southern changes (New York, London, Santiago at midnight), the odd ones (Lord Howe's
 * 30-minute change, Chatham's +12:45, Havana's change at midnight, Tehran, Apia near the date line).
 */
export const SAMPLE_TIME_ZONES = [
  'Asia/Calcutta',
  'Europe/London',
  'America/New_York',
  'America/Los_Angeles',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/Santiago',
  'America/Havana',
  'Asia/Tehran',
  'Pacific/Apia',
  'UTC',
] as const;
