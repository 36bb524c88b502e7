import { dirname, join } from 'node:path';
import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import { buildOpenApiDocument, type OpenApiDocument } from '../../shared/openapi/openapi-document';
import { functions } from '../../runtime-contract/resource-definitions';
import { directoryAssets } from './docs-assets';
import { docsAsset, docsPage, openApiDocument } from './docs.handler';

const renderer = functions.docs.bundledFiles!;

/**
 * On Lambda the renderer's files sit next to the bundle (copied at bundling, lib/constructs/service-function.ts);
 * locally they are read from the installed package.
 */
const rendererDirectory = (env: Environment): string =>
  env.LAMBDA_TASK_ROOT ? join(env.LAMBDA_TASK_ROOT, renderer.directory) : dirname(require.resolve(`${renderer.package}/package.json`));

/** No composition: the document is built from the manifest once per cold start, on first use. */
export const createHandler = (env: Environment) => {
  let document: OpenApiDocument | undefined;
  return createGroupHandler({
    group: 'docs',
    operations: {
      docsPage,
      openApiDocument: openApiDocument(() => (document ??= buildOpenApiDocument())),
      docsAsset: docsAsset(directoryAssets(rendererDirectory(env))),
    },
  });
};

export const handler = createHandler(process.env);
