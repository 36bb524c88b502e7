/**
 * A NAMED template's body parameters: one column per name (`first_name` for `{{first_name}}`), or
 * `--param-<name>` for every row, sent as `templateParams` / `globalTemplateParams` objects. A row
 * with any value of its own carries every name, the options filling the names it leaves empty, so
 * its object is whole whether the service replaces or merges the broadcast's.
 */
import type { BodyParameters } from './template-parameters';
import { ownValues, parameterValueProblems, type ValueKind } from './value-kinds';

/**
 * The named-parameter kind of a template's body (a positional body claims no column).
 *
 * @example
 * namedKind({ format: 'NAMED', names: ['first_name'] }).build({ first_name: 'Ada' }, (column) => column);
 * // { field: { first_name: 'Ada' }, problems: [] }
 */
export function namedKind(body: BodyParameters): ValueKind<Record<string, string>> {
  const names: readonly string[] = body.format === 'NAMED' ? body.names : [];
  const isName = (column: string): boolean => names.includes(column);
  return {
    claims: isName,
    columns: names,
    refusal: () => undefined,
    required: names.map((name) => ({ columns: [name], because: `the template's body has {{${name}}}` })),
    build: (values, nameOf) => {
      const problems: string[] = [];
      const field: Record<string, string> = {};
      for (const name of names) {
        const value = values[name];
        if (!value) continue;
        const broken = parameterValueProblems(nameOf(name), value);
        problems.push(...broken);
        if (broken.length === 0) field[name] = value;
      }
      return problems.length > 0 || Object.keys(field).length === 0 ? { problems } : { field, problems };
    },
    rowValues: (cells, common) => {
      const own = ownValues(cells, isName);
      return Object.keys(own).length === 0 ? undefined : { ...ownValues(common, isName), ...own };
    },
  };
}
