/** A file of the docs page's renderer that does not exist (answered as an unknown route). */
export class DocsAssetNotFoundError extends Error {
  readonly code = 'DOCS_ASSET_NOT_FOUND';
  constructor(file: string) {
    super(`No such file: ${file}`);
    this.name = 'DocsAssetNotFoundError';
  }
}
