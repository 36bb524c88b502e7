/** The esbuild `define` key naming where a bundle finds Powertools Metrics for its rare counts (lib/constructs/side-packages.ts), and the file beside the bundle. */
export const METRICS_MODULE = '__METRICS_MODULE__';
export const METRICS_FILE = './powertools-metrics.cjs';
