/**
 * Answers of `GET /me`, the people routes and `GET /audit-log` as docs/PEOPLE.md and the rules of
 * issue 37 say them, served to the browser by Playwright's `page.route` (not a test file): the
 * routes are built beside the console by other branches ("people-api", "audit"). The caller is the
 * email of the Bearer token (signature not checked here: the API's verifier does that); a person not
 * in the list answers 401, a role below the route's 403 ROLE_NOT_ALLOWED, the last admin 409
 * LAST_ADMIN. Every state-changing call is recorded in the audit log with the person.
 */
import type { Page, Request, Route } from 'playwright-core';
import type { AuditRow, PersonRow } from '../../../console/model/admin';
import { personIdOf } from '../../../shared/people/person';
import { roleAllows, type PersonRole } from '../../../shared/people/person-role';

export interface PeopleStub {
  people: Map<string, PersonRow>;
  audit: AuditRow[];
  /** The Authorization header of every call the stub answered. */
  authorizations: string[];
}

const ORGANIZATION = 'org_demo';
const envelope = (statusCode: number, message: string, data: unknown) => JSON.stringify({ statusCode, message, data });
const refusal = (code: string, message: string) => ({ error: { code, message } });

function callerOf(stub: PeopleStub, request: Request): PersonRow | undefined {
  const token = /^Bearer (.+)$/.exec(request.headers().authorization ?? '')?.[1];
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  const { email } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { email?: string };
  return [...stub.people.values()].find((person) => person.email === email);
}

function record(stub: PeopleStub, caller: PersonRow, request: Request, action: string, statusCode: number, target: Record<string, string>, errorCode?: string): void {
  const url = new URL(request.url());
  stub.audit.unshift({
    entryId: `aud_${String(stub.audit.length).padStart(4, '0')}`,
    at: new Date().toISOString(),
    actor: { kind: 'person', personId: caller.personId, email: caller.email, role: caller.role },
    action,
    method: request.method(),
    path: url.pathname,
    target,
    sourceIp: '127.0.0.1',
    statusCode,
    outcome: statusCode < 400 ? 'succeeded' : 'refused',
    errorCode,
    requestId: `req_${stub.audit.length}`,
  });
}

function peopleAnswer(stub: PeopleStub, caller: PersonRow, request: Request, personId: string | undefined): { status: number; message: string; data: unknown; action?: string; target?: Record<string, string>; code?: string } {
  const body = request.postData() ? (JSON.parse(request.postData()!) as { email?: string; role?: PersonRole }) : {};
  if (request.method() === 'GET') return { status: 200, message: 'People', data: { people: [...stub.people.values()] } };
  if (request.method() === 'POST') {
    const person: PersonRow = { personId: personIdOf(ORGANIZATION, body.email!), email: body.email!, role: body.role!, joinedAt: new Date().toISOString() };
    if (stub.people.has(person.personId)) return { status: 409, message: 'Person exists', data: refusal('PERSON_EXISTS', `${person.email} is already a member`), action: 'invitePerson', target: {}, code: 'PERSON_EXISTS' };
    stub.people.set(person.personId, person);
    return { status: 201, message: 'Invited', data: { person, invitation: { delivery: 'temporary-password', temporaryPassword: 'Tmp-7c1f-Pass!' } }, action: 'invitePerson', target: { personId: person.personId } };
  }
  const person = stub.people.get(personId ?? '');
  const action = request.method() === 'PATCH' ? 'setPersonRole' : 'removePerson';
  if (!person) return { status: 404, message: 'Person not found', data: refusal('PERSON_NOT_FOUND', 'Person not found'), action, target: { personId: personId ?? '' }, code: 'PERSON_NOT_FOUND' };
  const admins = [...stub.people.values()].filter((candidate) => candidate.role === 'admin');
  const demotesLastAdmin = person.role === 'admin' && admins.length === 1 && (request.method() === 'DELETE' || body.role !== 'admin');
  if (demotesLastAdmin) return { status: 409, message: 'Last admin', data: refusal('LAST_ADMIN', 'An organization keeps at least one admin'), action, target: { personId: person.personId }, code: 'LAST_ADMIN' };
  if (request.method() === 'PATCH') {
    const changed = { ...person, role: body.role! };
    stub.people.set(person.personId, changed);
    return { status: 200, message: 'Role changed', data: changed, action, target: { personId: person.personId } };
  }
  stub.people.delete(person.personId);
  return { status: 200, message: 'Removed', data: { personId: person.personId, removed: true }, action, target: { personId: person.personId } };
}

function auditAnswer(stub: PeopleStub, url: URL) {
  const actorId = url.searchParams.get('actorId');
  const action = url.searchParams.get('action');
  const entries = stub.audit.filter((entry) => (!actorId || (entry.actor.kind === 'person' && entry.actor.personId === actorId)) && (!action || entry.action === action));
  return { status: 200, message: 'Audit log', data: { entries, nextCursor: null } };
}

function answer(stub: PeopleStub, route: Route, request: Request): Promise<void> {
  stub.authorizations.push(request.headers().authorization ?? '');
  const url = new URL(request.url());
  const json = (status: number, message: string, data: unknown) => route.fulfill({ status, contentType: 'application/json', body: envelope(status, message, data) });
  const caller = callerOf(stub, request);
  if (!caller) return json(401, 'Unauthorized', refusal('UNAUTHORIZED', 'Unauthorized'));
  const [, resource, personId] = /\/broadcast\/public\/(me|people|audit-log|broadcasts)(?:\/([^/]+))?$/.exec(url.pathname) ?? [];
  if (resource === 'me') return json(200, 'Me', { organizationId: ORGANIZATION, actor: 'person', role: caller.role, personId: caller.personId, email: caller.email });
  if (resource === 'broadcasts') return json(200, 'Broadcasts', { broadcasts: [], nextCursor: null });
  if (!roleAllows(caller.role, 'admin')) return json(403, 'Forbidden', refusal('ROLE_NOT_ALLOWED', `The ${caller.role} role may not do this`));
  if (resource === 'audit-log') {
    const found = auditAnswer(stub, url);
    return json(found.status, found.message, found.data);
  }
  const found = peopleAnswer(stub, caller, request, personId && decodeURIComponent(personId));
  if (found.action) record(stub, caller, request, found.action, found.status, found.target ?? {}, found.code);
  return json(found.status, found.message, found.data);
}

/** Answers `/me`, `/people…`, `/audit-log` and the broadcast list (empty) for the people in `people`. */
export async function stubPeopleRoutes(page: Page, people: ReadonlyArray<{ email: string; role: PersonRole }>): Promise<PeopleStub> {
  const stub: PeopleStub = {
    people: new Map(people.map(({ email, role }) => [personIdOf(ORGANIZATION, email), { personId: personIdOf(ORGANIZATION, email), email, role, joinedAt: '2026-12-01T09:00:00.000Z' }])),
    audit: [],
    authorizations: [],
  };
  await page.route((url) => /\/broadcast\/public\/(me|people(\/[^/]+)?|audit-log|broadcasts)$/.test(url.pathname), (route, request) => answer(stub, route, request));
  return stub;
}
