/** The route table is the single source: manifest routes, operations and the documentation follow it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '../../../runtime-contract/all-routes';
import { resourcePath } from '../../../runtime-contract/route-manifest';
import { upstreamRoutes } from '../../../runtime-contract/upstream-routes';
import { buildUpstreamOperations, specialOperations } from '../../../functions/upstream-wrapper/operations';

const paramsOf = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);

it('gives every row a unique operation and a unique method + path', () => {
  expect(new Set(upstreamRoutes.map((route) => route.operation)).size).toBe(upstreamRoutes.length);
  expect(new Set(upstreamRoutes.map((route) => `${route.method} ${route.path}`)).size).toBe(upstreamRoutes.length);
});

it('becomes the upstream surface of the manifest: group upstream-wrapper, bearer upstream token, upstream rate class, body kind', () => {
  const generated = routes.filter((route) => route.surface === 'upstream');
  expect(generated.map((route) => `${route.method} ${resourcePath(route)}`)).toEqual(
    upstreamRoutes.map((route) => `${route.method} /api/v2/upstream${route.path}`),
  );
  for (const route of generated) {
    const row = upstreamRoutes.find((candidate) => candidate.operation === route.operation)!;
    expect(route).toEqual(
      expect.objectContaining({ group: 'upstream-wrapper', auth: 'upstream-access-token', rateLimit: 'upstream', body: row.body, method: row.method }),
    );
  }
  expect(routes.filter((route) => route.group === 'upstream-wrapper')).toEqual(generated);
});

it("covers the contract's two example paths", () => {
  expect(upstreamRoutes.map((route) => `${route.method} /upstream${route.path}`)).toEqual(
    expect.arrayContaining(['GET /upstream/phone-numbers', 'POST /upstream/wabas/{wabaId}/templates/migrate']),
  );
});

it.each(upstreamRoutes.map((route) => [route.operation, route] as const))('%s: upstream placeholders, owned ids and target are consistent', (_name, route) => {
  const own = paramsOf(route.path);
  // The organization-wide list calls each of its accounts; every other row fills the upstream path from its own.
  if (route.target !== 'organization') for (const name of paramsOf(route.upstream.path)) expect(own).toContain(name);
  for (const value of Object.values(route.fixedQuery ?? {})) for (const name of paramsOf(value)) expect(own).toContain(name);
  for (const check of route.ownedIds ?? []) if (check.source === 'path') expect(own).toContain(check.name);
  if (route.target === 'waba') expect(own[0]).toBe('wabaId');
  if (route.target === 'phone-number') expect(own[0]).toBe('phoneNumberId');
  if (route.body === 'multipart' || route.target === 'organization') expect(route.special).toBe(true);
  if (route.method === 'GET' || route.method === 'DELETE') expect(route.body).toBe('none');
  // Ids inside a body are checked only where there is a JSON body to read them from.
  if (route.bodyIds) expect(route.body).toBe('json');
});

it('builds one operation per row: the pass-through for ordinary rows, the handler for special ones', () => {
  const operations = buildUpstreamOperations();
  expect(Object.keys(operations).sort()).toEqual(upstreamRoutes.map((route) => route.operation).sort());
  for (const route of upstreamRoutes.filter((candidate) => candidate.special)) expect(operations[route.operation]).toBe(specialOperations[route.operation]);
  expect(() => buildUpstreamOperations({ ...specialOperations, stray: specialOperations.listPhoneNumbers! })).toThrow('Handler stray has no special route');
  const { uploadMedia: _missing, ...incomplete } = specialOperations;
  expect(() => buildUpstreamOperations(incomplete)).toThrow('Special route uploadMedia has no handler');
});

it('is documented route by route in docs/UPSTREAM-WRAPPER.md', () => {
  const document = readFileSync(join(__dirname, '../../../docs/UPSTREAM-WRAPPER.md'), 'utf8');
  for (const route of upstreamRoutes) {
    expect(document).toContain(`| ${route.method} | \`/upstream${route.path}\``);
  }
});
