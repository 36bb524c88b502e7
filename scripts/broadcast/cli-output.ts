/** Where the broadcast CLI's commands write: lines, errors, and the progress bar's stream. */
export interface CliOutput {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Where the progress bar draws (a TTY; elsewhere cli-progress draws nothing). */
  progressStream: NodeJS.WritableStream;
  sleep?: (ms: number) => Promise<void>;
}
