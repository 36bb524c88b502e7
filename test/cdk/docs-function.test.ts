/** The docs function ships the renderer's files next to its bundle (read at run time, no CDN). */
import { existsSync } from 'node:fs';
import { functions } from '../../runtime-contract/resource-definitions';
import { bundlingOf, bundlingOptions } from '../../lib/constructs/service-function';
import { groupRoutesDefine } from '../../lib/constructs/group-routes-define';

it('copies exactly the files the docs page loads into the bundle, and nothing for other functions', () => {
  const copy = functions.docs.bundledFiles!;
  const commands = bundlingOf('docs').commandHooks!.afterBundling('/in', '/out');
  expect(commands[0]).toBe(`mkdir -p "/out/${copy.directory}"`);
  expect(commands).toHaveLength(copy.files.length + 1);
  for (const [index, file] of copy.files.entries()) {
    const [, source, target] = /^cp "(.+)" "(.+)"$/.exec(commands[index + 1]!)!;
    expect(source).toMatch(new RegExp(`swagger-ui-dist/${file.replace('.', '\\.')}$`));
    expect(existsSync(source!)).toBe(true);
    expect(target).toBe(`/out/${copy.directory}/${file}`);
  }
  // No files beside health's bundle: it builds no SDK client, so not even the tracer's.
  expect(bundlingOf('health')).toEqual({
    ...bundlingOptions,
    // Its one route and its required variables (none) written in (lib/constructs/group-routes-define.ts, required-variables-define.ts).
    define: {
      __SDK_TRACER_MODULE__: 'false',
      __JOSE_MODULE__: 'false',
      __METRICS_MODULE__: 'false',
      ...groupRoutesDefine('health'),
      __REQUIRED_VARIABLES__: '"[]"',
    },
    externalModules: [],
  });
});
