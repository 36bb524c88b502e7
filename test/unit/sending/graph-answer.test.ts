/**
 * The one Graph-answer classifier (shared/sending/graph-answer.ts) and its table of codes
 * (shared/sending/failure-reasons.ts), pinned row by row: every HTTP status class, with and
 * without Meta's error body, no answer at all, and every Meta code the platform knows.
 */
import {
  DEFAULT_FAILURE_REASON,
  describeReason,
  failureReasonOf,
  fallsBackToCloudApi,
  knownMetaCodes,
  retryClassOf,
  templateHoldOf,
  type RetryClass,
} from '../../../shared/sending/failure-reasons';
import {
  classifyGraphAnswer,
  isRateLimitRejection,
  isRetryableRejection,
  sendOutcomeOf,
  type AnswerOutcome,
  type GraphReply,
} from '../../../shared/sending/graph-answer';

const metaError = (code: number, message = `error ${code}`) => ({
  error: { message, type: 'OAuthException', code, error_subcode: 2494055, fbtrace_id: 'AbCdEf' },
});
const answered = (httpStatus: number, body: unknown): GraphReply => ({ kind: 'answered', httpStatus, body });

describe('classifyGraphAnswer: every status class', () => {
  it.each<[string, GraphReply, AnswerOutcome, string | undefined]>([
    ['2xx with a message id', answered(200, { messages: [{ id: 'wamid.1' }] }), 'accepted', undefined],
    ['2xx without a message id', answered(200, { messages: [] }), 'unknown', 'success without a message id'],
    ['2xx with an unreadable body', answered(200, '<html>ok</html>'), 'unknown', 'unreadable success body'],
    ['2xx with an empty body', answered(200, undefined), 'unknown', 'unreadable success body'],
    ['3xx', answered(302, undefined), 'unknown', 'HTTP 302'],
    ["400 with Meta's error", answered(400, metaError(100)), 'rejected-final', undefined],
    ["400 without a Graph error (a proxy's page)", answered(400, '<html>Bad request</html>'), 'rejected-final', undefined],
    ['401 (token)', answered(401, metaError(190)), 'rejected-final', undefined],
    ['403 (permission)', answered(403, metaError(10)), 'rejected-final', undefined],
    ['404 (template)', answered(404, metaError(132001)), 'rejected-final', undefined],
    ['408 (request timeout: the request was never taken)', answered(408, undefined), 'rejected-retryable', undefined],
    ['429 whatever the code', answered(429, metaError(100)), 'rejected-retryable', undefined],
    ["500 with Meta's error", answered(500, metaError(1)), 'rejected-retryable', undefined],
    ["500 with Meta's error of a final code (retried by its status)", answered(500, metaError(131057)), 'rejected-retryable', undefined],
    ['500 without a body', answered(500, 'Internal error'), 'unknown', 'HTTP 500 without a body'],
    ['500 with JSON but no Graph error', answered(500, { oops: true }), 'unknown', "HTTP 500 without Meta's error"],
    ["502 with a Meta-like body (a gateway's, not Meta's verdict)", answered(502, metaError(1)), 'unknown', 'HTTP 502'],
    ['502 without a body', answered(502, '<html>bad gateway</html>'), 'unknown', 'HTTP 502'],
    ["503 with Meta's error", answered(503, metaError(2)), 'rejected-retryable', undefined],
    ['503 without a body', answered(503, undefined), 'unknown', 'HTTP 503 without a body'],
    ['504 with a Meta-like body', answered(504, metaError(1)), 'unknown', 'HTTP 504'],
    ['504 without a body', answered(504, undefined), 'unknown', 'HTTP 504'],
    ['a transport error', { kind: 'no-answer', failure: 'connection failed' }, 'unknown', 'connection failed'],
    ['a timeout', { kind: 'no-answer', failure: 'timeout' }, 'unknown', 'timeout'],
  ])('%s: %s', (_name, reply, outcome, why) => {
    const answer = classifyGraphAnswer(reply);
    expect(answer.outcome).toBe(outcome);
    if (answer.outcome === 'unknown') {
      expect(answer.why).toBe(why);
      // Never resent: the message may have gone out.
      expect(answer.reason).toMatchObject({
        code: 'UNKNOWN_OUTCOME',
        text: 'No answer came: the message may have been sent',
        action: 'Wait for its delivery status; do not resend',
      });
    }
    if (answer.outcome === 'rejected-final' || answer.outcome === 'rejected-retryable') {
      expect(answer.httpStatus).toBe((reply as { httpStatus: number }).httpStatus);
      expect(answer.reason.text.length).toBeGreaterThan(0);
      expect(answer.reason.action.length).toBeGreaterThan(0);
    }
  });

  it("keeps Meta's error as sent, and stands in a synthetic one (the status as its code) when the body has none", () => {
    expect(classifyGraphAnswer(answered(400, metaError(131026, 'Message undeliverable')))).toEqual({
      outcome: 'rejected-final',
      httpStatus: 400,
      rateLimited: false,
      error: { message: 'Message undeliverable', type: 'OAuthException', code: 131026, error_subcode: 2494055, fbtrace_id: 'AbCdEf', error_data: undefined },
      reason: { code: 'INVALID_PHONE_NUMBER', text: 'The number is not a valid WhatsApp number', action: expect.any(String) },
    });
    expect(classifyGraphAnswer(answered(500, { error: { message: 'boom' } }))).toMatchObject({
      outcome: 'rejected-retryable',
      error: { code: 500, message: 'boom', type: 'UpstreamError' },
    });
    expect(classifyGraphAnswer(answered(403, '<html>denied</html>'))).toMatchObject({
      error: { code: 403, message: 'Upstream answered HTTP 403', type: 'UpstreamError' },
      reason: { code: '403' },
    });
  });

  it('gives the sending port its view: accepted with the id, rejected with retryable, unknown with the reason', () => {
    expect(sendOutcomeOf(classifyGraphAnswer(answered(200, { messages: [{ id: 'wamid.HBgM' }] })))).toEqual({ kind: 'accepted', messageId: 'wamid.HBgM' });
    expect(sendOutcomeOf(classifyGraphAnswer(answered(503, metaError(2))))).toEqual({
      kind: 'rejected',
      httpStatus: 503,
      retryable: true,
      error: expect.objectContaining({ code: 2 }),
    });
    expect(sendOutcomeOf(classifyGraphAnswer(answered(400, metaError(131049))))).toMatchObject({ kind: 'rejected', retryable: false });
    expect(sendOutcomeOf(classifyGraphAnswer({ kind: 'no-answer', failure: 'timeout' }))).toEqual({ kind: 'unknown', reason: 'timeout' });
  });
});

/** [code, the HTTP status Meta answers it with, retry class, recorded reason code, template hold]. */
const META_CODE_ROWS: ReadonlyArray<[number, number, RetryClass, string, string | undefined]> = [
  [4, 429, 'rate-limit', '4', undefined],
  [80007, 429, 'rate-limit', '80007', undefined],
  [130429, 400, 'rate-limit', '130429', undefined],
  [131056, 400, 'rate-limit', '131056', undefined],
  [131048, 400, 'rate-limit', '131048', undefined],
  [1, 500, 'transient', '1', undefined],
  [2, 503, 'transient', '2', undefined],
  [131000, 500, 'transient', '131000', undefined],
  [131016, 503, 'transient', '131016', undefined],
  [100, 400, 'final', '100', undefined],
  [131008, 400, 'final', '131008', undefined],
  [131009, 400, 'final', '131009', undefined],
  [131051, 400, 'final', '131051', undefined],
  [131055, 405, 'final', '131055', undefined],
  [131062, 400, 'final', '131062', undefined],
  // Max price (fact sheet row 4): a max-price template through /messages, a country without max price.
  [131061, 400, 'final', '131061', undefined],
  [131065, 400, 'final', '131065', undefined],
  [132000, 400, 'final', '132000', undefined],
  [132001, 404, 'final', '132001', undefined],
  [132005, 400, 'final', '132005', undefined],
  [132007, 400, 'final', '132007', undefined],
  [132012, 400, 'final', '132012', undefined],
  [132015, 400, 'final', '132015', 'TEMPLATE_PAUSED'],
  [132016, 400, 'final', '132016', 'TEMPLATE_DISABLED'],
  [132018, 400, 'final', '132018', undefined],
  [132068, 400, 'final', '132068', undefined],
  [132069, 400, 'final', '132069', undefined],
  [131026, 400, 'final', 'INVALID_PHONE_NUMBER', undefined],
  [131047, 400, 'final', '131047', undefined],
  [131049, 400, 'final', '131049', undefined],
  [131050, 400, 'final', '131050', undefined],
  [130472, 400, 'final', '130472', undefined],
  [131021, 400, 'final', '131021', undefined],
  [131070, 400, 'final', '131070', undefined],
  [190, 401, 'final', '190', undefined],
  [10, 403, 'final', '10', undefined],
  [131005, 403, 'final', '131005', undefined],
  [368, 403, 'final', '368', undefined],
  [131031, 403, 'final', '131031', undefined],
  [131042, 400, 'final', '131042', undefined],
  [131057, 500, 'final', '131057', undefined],
  [133010, 400, 'final', '133010', undefined],
  // The Marketing Messages API's (/work/shared/meta/marketing-messages-api.md section 5); 134102 comes with HTTP 500.
  [134100, 400, 'final', '134100', undefined],
  [134101, 400, 'final', '134101', undefined],
  [134102, 500, 'final', '134102', undefined],
  [131063, 400, 'final', '131063', undefined],
  [1752041, 400, 'final', '1752041', undefined],
  // Refusals of the account (the job is held: holdsAccount) and of a country (stopsCountry).
  [131064, 400, 'final', '131064', undefined],
  [130497, 403, 'final', '130497', undefined],
];

describe('every Meta code the platform knows', () => {
  it('is a row of this test (a new code in the table needs its row here)', () => {
    expect(META_CODE_ROWS.map(([code]) => code).sort((a, b) => a - b)).toEqual(knownMetaCodes().sort((a, b) => a - b));
  });

  it.each(META_CODE_ROWS)('%i (HTTP %i): %s, recorded as %s', (code, httpStatus, retry, recorded, hold) => {
    expect(retryClassOf(code)).toBe(retry);
    const answer = classifyGraphAnswer(answered(httpStatus, metaError(code)));
    // Retried by its code, or by a status that is retried whatever the code (429, 500, 503).
    const retryable = retry !== 'final' || [408, 429, 500, 503].includes(httpStatus);
    expect(answer).toMatchObject({
      outcome: retryable ? 'rejected-retryable' : 'rejected-final',
      rateLimited: retry === 'rate-limit',
      reason: { code: recorded },
    });
    // At 400 only its code decides.
    expect(classifyGraphAnswer(answered(400, metaError(code)))).toMatchObject({ outcome: retry === 'final' ? 'rejected-final' : 'rejected-retryable' });
    expect(templateHoldOf(code)).toBe(hold);
    const described = describeReason(String(code));
    expect(described.text).not.toBe(describeReason(DEFAULT_FAILURE_REASON).text);
    expect(described.action.length).toBeGreaterThan(0);
  });

  it("sends through Cloud API instead exactly the Marketing Messages API's refusals of the template or account (131055, 134100, 134101, 134102)", () => {
    expect(
      knownMetaCodes()
        .filter(fallsBackToCloudApi)
        .sort((a, b) => a - b),
    ).toEqual([131055, 134100, 134101, 134102]);
    // 134102 is Meta's HTTP 500 with its error: a refusal (nothing sent), never an unknown outcome.
    expect(classifyGraphAnswer(answered(500, metaError(134102, '(#134102) Template unavailable for use')))).toMatchObject({
      outcome: 'rejected-retryable',
      error: { code: 134102 },
      reason: { code: '134102' },
    });
    expect(describeReason('134101').action).toMatch(/10 minutes/);
  });

  it('retries none of the per-user and per-number refusals at once (131049, 131050, 131026, 131047)', () => {
    for (const code of [131049, 131050, 131026, 131047]) expect(isRetryableRejection(400, code)).toBe(false);
  });

  it('calls an unknown code final, in the default words', () => {
    expect(retryClassOf(999_999)).toBe('final');
    expect(classifyGraphAnswer(answered(400, metaError(999_999)))).toMatchObject({
      outcome: 'rejected-final',
      reason: { code: '999999', text: 'The message could not be sent' },
    });
  });
});

describe('rate-limit and retry classification', () => {
  it.each([
    ['HTTP 429', 429, 0],
    ['130429 throughput', 400, 130429],
    ['131056 pair rate', 400, 131056],
    ['80007 WABA rate', 400, 80007],
    ['4 app rate', 400, 4],
    ['131048 spam rate', 400, 131048],
  ])('treats %s as a rate limit, which is retryable', (_name, status, code) => {
    expect(isRateLimitRejection(status, code)).toBe(true);
    expect(isRetryableRejection(status, code)).toBe(true);
  });

  it.each([
    ['HTTP 500', 500, 0],
    ['HTTP 503', 503, 0],
    ['HTTP 408', 408, 0],
    ['1 unknown', 400, 1],
    ['2 service unavailable', 400, 2],
    ['131000 something went wrong', 400, 131000],
    ['131016 overloaded', 400, 131016],
  ])('retries %s without calling it a rate limit', (_name, status, code) => {
    expect(isRetryableRejection(status, code)).toBe(true);
    expect(isRateLimitRejection(status, code)).toBe(false);
  });

  it.each([
    ['131026 undeliverable', 400, 131026],
    ['100 invalid parameter', 400, 100],
    ['132001 template missing', 404, 132001],
    ['190 token', 401, 190],
  ])('does not retry %s', (_name, status, code) => {
    expect(isRetryableRejection(status, code)).toBe(false);
    expect(isRateLimitRejection(status, code)).toBe(false);
  });
});

describe('failureReasonOf', () => {
  it('names undeliverable numbers and keeps other codes', () => {
    const reasonOf = (code: number, message = 'x') => failureReasonOf({ code, message });
    expect(reasonOf(131026)).toBe('INVALID_PHONE_NUMBER');
    expect(reasonOf(100, 'Invalid parameter: recipient phone number')).toBe('INVALID_PHONE_NUMBER');
    expect(reasonOf(100, 'Invalid parameter: template name')).toBe('100');
    expect(reasonOf(131047)).toBe('131047');
  });
});

describe('describeReason', () => {
  it.each([
    ['INVALID_PHONE_NUMBER', 'The number is not a valid WhatsApp number'],
    ['DUPLICATE_RECIPIENT', 'The number appears earlier in the same request'],
    ['UNSUPPORTED_COUNTRY_CODE', 'No price is set for the country code'],
    ['WORKER_ERROR', 'Sending kept failing and was given up'],
    ['TEMPLATE_SEND_FAILED', 'The message could not be sent'],
    ['131014', 'The template parameters do not match the template'],
    ['130429', 'Rate limit reached; retries ran out'],
    ['131047', 'More than 24 hours since the customer last replied'],
    ['131049', 'Meta chose not to deliver this marketing message'],
    ['131026', 'The message could not be delivered'],
    ['131050', 'The user stopped marketing messages'],
    ['131051', 'Unsupported message type'],
    ['132001', 'The template does not exist in this language'],
  ])("keeps the recipients list's words for %s", (code, text) => {
    expect(describeReason(code).text).toBe(text);
  });

  it.each(['OPTED_OUT', 'TEMPLATE_PAUSED', 'UNKNOWN_OUTCOME'])("words the platform's %s and says what to do", (code) => {
    const described = describeReason(code);
    expect(described.text).not.toBe('The message could not be sent');
    expect(described.action.length).toBeGreaterThan(0);
  });

  it('reads any other code, including an object key, as the default reason', () => {
    for (const code of ['NOT_A_CODE', 'constructor', '__proto__', '123456789', ''])
      expect(describeReason(code)).toEqual(describeReason('TEMPLATE_SEND_FAILED'));
  });
});
