import { httpOperation } from '../../shared/http/http-operation';
import { docsPageHtml } from '../../shared/openapi/docs-page';
import { DocsAssetNotFoundError } from '../../shared/openapi/errors';
import type { OpenApiDocument } from '../../shared/openapi/openapi-document';

export interface DocsAssets {
  read(file: string): Promise<{ text: string; contentType: string } | undefined>;
}

/** The renderer's files change only with a deployment: browsers may keep them a day. */
const CACHEABLE = { 'Cache-Control': 'public, max-age=86400' };

export const docsPage = httpOperation('none', async (request) => ({
  statusCode: 200,
  headers: { 'Content-Type': 'text/html; charset=utf-8' },
  body: undefined,
  textBody: docsPageHtml(request.path),
}));

export const openApiDocument = (document: () => OpenApiDocument) => httpOperation('none', async () => ({ statusCode: 200, body: document() }));

export const docsAsset = (assets: DocsAssets) =>
  httpOperation('none', async (request) => {
    const file = request.pathParameters.file ?? '';
    const asset = await assets.read(file);
    if (!asset) throw new DocsAssetNotFoundError(file);
    return { statusCode: 200, headers: { 'Content-Type': asset.contentType, ...CACHEABLE }, body: undefined, textBody: asset.text };
  });
