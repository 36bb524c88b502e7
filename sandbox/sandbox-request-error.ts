/**
 * A rejected `/_sandbox/*` request or programmatic call. These are the sandbox's own endpoints,
 * so they answer plain `{ error: { message } }` rather than imitating Meta.
 */
export class SandboxRequestError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxRequestError';
  }
}
