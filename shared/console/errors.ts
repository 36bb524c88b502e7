/** A file the campaign console does not serve (answered as an unknown route). */
export class ConsoleAssetNotFoundError extends Error {
  readonly code = 'CONSOLE_ASSET_NOT_FOUND';
  constructor(file: string) {
    super(`No such file: ${file}`);
    this.name = 'ConsoleAssetNotFoundError';
  }
}
