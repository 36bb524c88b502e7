import vm from 'node:vm';

/**
 * `import()` through Node's own ESM loader, even under jest (whose module system cannot load
 * ESM-only packages such as fauxqs). Resolution starts from this file, so packages resolve
 * from the project's node_modules as usual.
 */
export async function importNativeEsm<T>(specifier: string): Promise<T> {
  const load = vm.runInThisContext('(specifier) => import(specifier)', {
    filename: __filename,
    importModuleDynamically: (vm.constants as unknown as { USE_MAIN_CONTEXT_DEFAULT_LOADER: never }).USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }) as (specifier: string) => Promise<T>;
  return load(specifier);
}
