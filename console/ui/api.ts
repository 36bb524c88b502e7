/**
 * The console's only way to the service: the public broadcast routes on this origin, a person's ID
 * token as `Authorization: Bearer` or the key as `x-api-key` (never in the URL). Errors carry the
 * API's message for the page to show. A 401 or 403 signs out only when the credential check
 * (`GET /me` for a person, one list read for a key) refuses the credential (console/model/access.ts).
 */
import { refusesKey } from '../model/access';
import { meOf, type Me } from '../model/roles';
import { forgetPerson, personToken } from './oidc';
import { session } from './session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** The gateway knows no such route (an older service: e.g. no follow-ups yet). */
    readonly routeMissing = false,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** This call is the credential check: its refusal signs out. */
  credentialCheck?: boolean;
}

let apiBase = '';
let onSignedOut: (reason: string) => void = () => undefined;

/** Where the routes are (the page's `console-api-base`) and what to do when the key is refused. */
export function configureApi(base: string, signedOut: (reason: string) => void): void {
  apiBase = base;
  onSignedOut = signedOut;
}

function urlOf(path: string, query: CallOptions['query'] = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return `${apiBase}${path}${text ? `?${text}` : ''}`;
}

/** The credential's header: the person's token when a person is signed in, else the key. */
function credentialHeader(): Record<string, string> | undefined {
  const token = personToken();
  if (token) return { authorization: `Bearer ${token}` };
  const key = session.key();
  return key ? { 'x-api-key': key } : undefined;
}

async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const credential = credentialHeader();
  if (!credential) throw new ApiError(401, 'Signed out');
  const headers: Record<string, string> = { ...credential, ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(urlOf(path, options.query), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    // No cookies, no cache of keyed answers.
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!response.ok) {
    const error = await errorOf(response);
    if (refusesKey(error.status)) {
      if (options.credentialCheck) signOutRefused();
      // Another call refused: the key may be fine (another organization's job is a 401); ask the check.
      else await keyStillAccepted();
    }
    throw error;
  }
  return response;
}

function signOutRefused(): void {
  if (personToken()) {
    forgetPerson();
    onSignedOut('Your sign-in has ended. Sign in again.');
    return;
  }
  if (!session.key()) return;
  session.signOut();
  onSignedOut('The API key was refused. Sign in again.');
}

/** The credential check: one read of the campaign list with the key. A 401 or 403 here signs out (and throws). */
export async function checkCredential(): Promise<void> {
  if (personToken()) {
    await readMe();
    return;
  }
  await call('GET', '/broadcasts', { query: { limit: 1 }, credentialCheck: true });
}

/**
 * Who is signed in (`GET /me`; its 401 or 403 signs out, as the credential check). Undefined when
 * the service has no `/me` route yet (an older service): the console then shows every control.
 */
export async function readMe(): Promise<Me | undefined> {
  try {
    const response = await call('GET', '/me', { credentialCheck: true });
    return meOf(((await response.json()) as { data?: unknown }).data);
  } catch (error) {
    if (error instanceof ApiError && error.routeMissing && !personToken()) return undefined;
    throw error;
  }
}

let pendingCheck: Promise<boolean> | undefined;

/**
 * Whether the key still passes the credential check (which signs out when it does not); reads
 * refused together share one check. A check that fails otherwise (network, 5xx) keeps the key.
 */
export function keyStillAccepted(): Promise<boolean> {
  pendingCheck ??= checkCredential()
    .then(
      () => true,
      (error: unknown) => !(error instanceof ApiError && refusesKey(error.status)),
    )
    .finally(() => {
      pendingCheck = undefined;
    });
  return pendingCheck;
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as {
    message?: string;
    retryAfterSeconds?: number;
    data?: { error?: { code?: string; message?: string } };
  };
  const message = body.data?.error?.message ?? body.message ?? `HTTP ${response.status}`;
  const code = body.data?.error?.code;
  // The gateway's own 404 for an unknown route has no error code; a job that does not exist has one.
  const routeMissing = response.status === 404 && code === undefined && message === 'Route not found';
  return new ApiError(response.status, message, code, routeMissing, body.retryAfterSeconds);
}

/** The `data` of a broadcast-envelope answer. */
export async function getData<T>(path: string, query?: CallOptions['query']): Promise<T> {
  const response = await call('GET', path, { query });
  return ((await response.json()) as { data: T }).data;
}

export async function getText(path: string, query?: CallOptions['query']): Promise<string> {
  return (await call('GET', path, { query })).text();
}

/** One page of a text answer, with the next page's cursor when the route pages its CSV (`X-Next-Cursor`). */
export async function getTextPage(path: string, query?: CallOptions['query']): Promise<{ text: string; nextCursor: string | null }> {
  const response = await call('GET', path, { query });
  return { text: await response.text(), nextCursor: response.headers.get('x-next-cursor') || null };
}

/** A POST's whole answer body (the dry run answers without the envelope's `data` in some versions). */
export async function post<T>(path: string, options: CallOptions = {}): Promise<{ status: number; body: T; jobId: string | null }> {
  const response = await call('POST', path, options);
  return { status: response.status, body: (await response.json().catch(() => ({}))) as T, jobId: response.headers.get('x-broadcast-job-id') };
}

/** A failure in words for the page: the route missing, a rate limit with its wait, or the API's message. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (error.status === 429) return `Too many requests for this key: try again in ${error.retryAfterSeconds ?? 'a few'} seconds.`;
  return `${error.message} (HTTP ${error.status}${error.code ? `, ${error.code}` : ''})`;
}

/** The `data` of a state-changing call's envelope (PUT, PATCH, DELETE, a POST whose `data` is wanted). */
export async function sendData<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options: CallOptions = {}): Promise<T> {
  const response = await call(method, path, options);
  return ((await response.json().catch(() => ({}))) as { data: T }).data;
}

/**
 * Any method's enveloped answer: its `data`, the API's message, the status and whether it was an
 * idempotent replay (the builder's imports, removals and deletes; docs/CONSOLE.md "Audiences").
 */
export async function sendEnvelope<T>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; message: string; data: T; replayed: boolean }> {
  const response = await call(method, path, options);
  const body = (await response.json().catch(() => ({}))) as { message?: string; data?: T };
  return { status: response.status, message: body.message ?? '', data: body.data as T, replayed: response.headers.get('idempotent-replayed') === 'true' };
}
