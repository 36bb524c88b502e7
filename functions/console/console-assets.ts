import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { consoleAssetFiles } from '../../shared/console/console-page';
import type { ConsoleSignInSettings } from '../../shared/console/sign-in-settings';
import { reasonTable } from '../../shared/sending/failure-reasons';

export interface ConsoleAsset {
  text: string;
  contentType: string;
}

export interface ConsoleAssets {
  read(file: string): Promise<ConsoleAsset | undefined>;
}

const contentTypes: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'application/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
};
const contentTypeOf = (file: string): string => contentTypes[file.split('.').pop() as string] ?? 'application/octet-stream';

/**
 * The console's files: the script and style sheet esbuild built into `directory` (next to the bundle
 * on AWS, the local build folder locally), read once each, and the failure-reason table as JSON,
 * generated from shared/sending/failure-reasons.ts (the one table; never a copy), and the person
 * sign-in's settings (`signIn`: the first issuer, its client, the idle time; `{}` when none). Only the listed
 * names are served: no path from the request reaches the file system.
 *
 * @example
 * const assets = consoleAssets('/var/task/console-assets');
 * (await assets.read('failure-codes.json'))?.contentType; // 'application/json; charset=utf-8'
 * await assets.read('../secret'); // undefined
 */
export function consoleAssets(directory: string, signIn: () => ConsoleSignInSettings = () => ({})): ConsoleAssets {
  const cache = new Map<string, Promise<string>>();
  const generated: Record<string, () => string> = {
    'failure-codes.json': () => JSON.stringify(reasonTable()),
    'sign-in.json': () => JSON.stringify(signIn()),
  };
  return {
    async read(file) {
      if (!(consoleAssetFiles as readonly string[]).includes(file)) return undefined;
      let text = cache.get(file);
      if (!text) {
        const build = generated[file];
        text = build ? Promise.resolve(build()) : readFile(join(directory, file), 'utf8');
        cache.set(file, text);
      }
      try {
        return { text: await text, contentType: contentTypeOf(file) };
      } catch {
        // Not built (a local run that skipped the build): answered as a missing file, tried again next time.
        cache.delete(file);
        return undefined;
      }
    },
  };
}
