import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { docsPageAssets } from '../../shared/openapi/docs-page';
import type { DocsAssets } from './docs.handler';

const contentTypes: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'application/javascript; charset=utf-8' };

/** The page's files from `directory`, read once each; only the names the page loads (no path from the request reaches the file system). */
export function directoryAssets(directory: string): DocsAssets {
  const cache = new Map<string, Promise<string>>();
  return {
    async read(file) {
      if (!docsPageAssets.includes(file)) return undefined;
      let text = cache.get(file);
      if (!text) {
        text = readFile(join(directory, file), 'utf8');
        cache.set(file, text);
      }
      return { text: await text, contentType: contentTypes[file.split('.').pop() as string] ?? 'application/octet-stream' };
    },
  };
}
