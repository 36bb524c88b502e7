/** The esbuild `define` key naming where a bundle finds jose (lib/constructs/side-packages.ts), and the file beside the bundle. */
export const JOSE_MODULE = '__JOSE_MODULE__';
export const JOSE_FILE = './jose.cjs';
