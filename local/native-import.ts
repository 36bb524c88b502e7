import vm from 'node:vm';

/**
 * `import()` of an ESM-only package (fauxqs) from this CommonJS code.
 *
 * Under Node and tsx (`npm start`, the CLIs) a plain dynamic `import()` does it. Only jest needs
 * more: its module system turns `import()` into its own `require`, which cannot load ESM, so under
 * jest the call goes through Node's own loader with `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`
 * (experimental: Node prints an ExperimentalWarning, which is why it is not taken elsewhere).
 * Resolution starts from this file, so packages resolve from the project's node_modules.
 */
export async function importNativeEsm<T>(specifier: string): Promise<T> {
  if (loadedByJest()) return importThroughMainContextLoader<T>(specifier);
  return (await import(specifier)) as T;
}

/** Jest hands every module it loads a `jest` object in the module's scope; Node and tsx do not. */
export function loadedByJest(): boolean {
  return typeof jest !== 'undefined';
}

function importThroughMainContextLoader<T>(specifier: string): Promise<T> {
  const load = vm.runInThisContext('(specifier) => import(specifier)', {
    filename: __filename,
    importModuleDynamically: (vm.constants as unknown as { USE_MAIN_CONTEXT_DEFAULT_LOADER: never }).USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }) as (specifier: string) => Promise<T>;
  return load(specifier);
}
