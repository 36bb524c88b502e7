/**
 * The port to Meta's WhatsApp Cloud API (Graph API). Use cases see outcomes, not HTTP:
 * a send is accepted, definitely rejected (retryable or not), or of unknown outcome.
 */

export interface GraphError {
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  fbtrace_id?: string;
  error_data?: unknown;
}

export type SendOutcome =
  | { kind: 'accepted'; messageId: string }
  /** Meta answered with an error: the message was not sent. */
  | { kind: 'rejected'; httpStatus: number; error: GraphError; retryable: boolean }
  /** No answer we can trust (timeout, connection reset, 502/504): it may or may not have been sent. */
  | { kind: 'unknown'; reason: string };

export interface UpstreamTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: Array<{ type: string; text?: string; format?: string; [key: string]: unknown }>;
}

export interface UpstreamPhoneNumber {
  id: string;
  display_phone_number: string;
  verified_name?: string;
  [key: string]: unknown;
}

export interface UpstreamCall {
  accessToken: string;
}

export interface CloudApiClient {
  listTemplates(wabaId: string, call: UpstreamCall): Promise<UpstreamTemplate[]>;
  listPhoneNumbers(wabaId: string, call: UpstreamCall): Promise<UpstreamPhoneNumber[]>;
  sendMessage(phoneNumberId: string, body: Record<string, unknown>, call: UpstreamCall): Promise<SendOutcome>;
}

/**
 * Meta's throttling codes: 4 (app), 80007 (WABA), 130429 (throughput), 131056 (pair rate),
 * and 131048 (spam rate). A rejected send with one of these was not sent and may be retried later.
 */
export const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([4, 80007, 130429, 131056, 131048]);
/** Meta's temporary errors (1 unknown, 2 service unavailable, 131000 something went wrong, 131016 overloaded). */
export const TRANSIENT_CODES: ReadonlySet<number> = new Set([1, 2, 131000, 131016]);

export const isRetryableRejection = (httpStatus: number, code: number): boolean =>
  httpStatus === 429 || RATE_LIMIT_CODES.has(code) || TRANSIENT_CODES.has(code) || httpStatus === 500 || httpStatus === 503;

export const isRateLimitRejection = (httpStatus: number, code: number): boolean => httpStatus === 429 || RATE_LIMIT_CODES.has(code);
