/** A missing or malformed setting: the message names the variable. Internal (a 5xx without details). */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
  readonly code = 'CONFIGURATION';
}
