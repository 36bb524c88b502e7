/** Failures of the local runner (`npm start`, `npm run sandbox`). */

/**
 * A port the runner must listen on is taken (another `npm start`, or any other program). Names the
 * environment variable that moves it, so the fix is in the message instead of a bare EADDRINUSE.
 */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  readonly code = 'PORT_IN_USE';
  constructor(
    readonly port: number,
    /** The environment variable choosing this port, e.g. `PORT`. */
    readonly setting: string,
    what: string,
  ) {
    super(
      `port ${port} (${what}) is already in use, perhaps by another \`npm start\`. ` +
        `Stop that program, or set ${setting} to a free port, e.g. ${setting}=${port + 1} (README: "Local settings").`,
    );
  }
}

/** Runs `listen`; a taken port becomes a PortInUseError naming `setting`, other failures pass unchanged. */
export async function listeningOn<T>(port: number, setting: string, what: string, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE') throw new PortInUseError(port, setting, what);
    throw error;
  }
}
