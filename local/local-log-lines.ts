/**
 * What `npm start` prints of the functions' logs. Every function writes Powertools' JSON lines,
 * about 3,300 of them in 3.5 minutes of a demo; a person at the terminal wants the banner, one line
 * per request and one per job event, and every warning and error. `LOG_FORMAT=json` keeps the raw
 * lines; `LOG_LEVEL` (DEBUG, INFO, WARN, ERROR) chooses the level, INFO showing every line.
 */

export type LocalLogFormat = 'pretty' | 'json';
/** `concise` (the default): warnings, errors and the lifecycle lines below; otherwise Powertools' levels. */
export type LocalLogLevel = 'concise' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

const levelRank: Record<string, number> = { DEBUG: 10, INFO: 20, WARN: 30, ERROR: 40, CRITICAL: 50 };

/** INFO lines a person follows a job by: the rest of INFO (per request, per webhook batch, per customer event) is left out by default. */
const lifecycleMessages = new Set(['chunk processed', 'Scheduled job firing']);
/** The request lines come from the gateway (method, operation, status, time); the functions' own copies would repeat them. */
const requestMessages = new Set(['request served', 'request rejected']);

/** Facts worth a place on a line, in this order; everything else stays in LOG_FORMAT=json. */
const shownFacts = ['jobId', 'chunkIndex', 'sent', 'failed', 'unknown', 'outcome', 'statusCode', 'code', 'durationMs', 'error'];

/**
 * The local settings from the environment: `LOG_FORMAT` (pretty | json, default pretty) and
 * `LOG_LEVEL` (default concise).
 *
 * @example
 * localLogSettings({ LOG_FORMAT: 'json' }); // { format: 'json', level: 'concise' }
 */
export function localLogSettings(env: Readonly<Record<string, string | undefined>>): { format: LocalLogFormat; level: LocalLogLevel } {
  const format = env.LOG_FORMAT?.toLowerCase() === 'json' ? 'json' : 'pretty';
  const level = env.LOG_LEVEL?.toUpperCase();
  return { format, level: level !== undefined && level in levelRank && level !== 'CRITICAL' ? (level as LocalLogLevel) : 'concise' };
}

/** The level the functions themselves log at (POWERTOOLS_LOG_LEVEL): concise needs their INFO lifecycle lines. */
export const powertoolsLevelOf = (level: LocalLogLevel): string => (level === 'concise' ? 'INFO' : level);

const timeOf = (timestamp: unknown): string =>
  typeof timestamp === 'string' && timestamp.length >= 23 ? timestamp.slice(11, 23) : new Date().toISOString().slice(11, 23);

const factText = (value: unknown): string => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

/**
 * One function's output line as printed, or undefined to leave it out. Lines that are not JSON
 * (a stack trace, a library's notice) are printed as they are.
 *
 * @example
 * formatLocalLogLine('chunk-worker', '{"level":"INFO","message":"chunk processed","timestamp":"2026-03-01T09:00:00.123Z","jobId":"pub_1","sent":1000}', 'concise');
 * // '09:00:00.123  chunk-worker  chunk processed  jobId=pub_1 sent=1000'
 */
export function formatLocalLogLine(functionName: string, line: string, level: LocalLogLevel): string | undefined {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (entry === null || typeof entry !== 'object' || typeof entry.message !== 'string') return line;
  const rank = levelRank[String(entry.level).toUpperCase()] ?? levelRank.INFO!;
  const message = entry.message;
  if (requestMessages.has(message) && rank < levelRank.WARN!) return undefined;
  const wanted = level === 'concise' ? rank >= levelRank.WARN! || lifecycleMessages.has(message) : rank >= levelRank[level]!;
  if (!wanted) return undefined;
  const facts = shownFacts.filter((key) => entry[key] !== undefined).map((key) => `${key}=${factText(entry[key])}`);
  const label = rank >= levelRank.WARN! ? `${String(entry.level).toUpperCase()} ` : '';
  return [`${timeOf(entry.timestamp)}  ${functionName}  ${label}${message}`, ...(facts.length > 0 ? [facts.join(' ')] : [])].join('  ');
}

/**
 * The gateway's line for one request.
 *
 * @example
 * formatRequestLine({ group: 'broadcast-send', operation: 'sendTemplateBroadcast', statusCode: 202, durationMs: 45.2 }, new Date('2026-03-01T09:00:00.123Z'));
 * // '09:00:00.123  → sendTemplateBroadcast 202 (45 ms)'
 */
export function formatRequestLine(info: { group: string; operation: string; statusCode: number; durationMs: number }, at = new Date()): string {
  return `${at.toISOString().slice(11, 23)}  → ${info.operation} ${info.statusCode} (${Math.round(info.durationMs)} ms)`;
}
