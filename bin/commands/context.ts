/** Where a command's output goes: the process's streams, or buffers when a test runs the command line in-process. */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** What a command writes through, and whether something failed that it carried on past. */
export class CommandContext {
  /** Set when one object failed and the command went on with the others (as kubectl apply -f does); the exit code is then 1. */
  failed = false;

  constructor(private readonly io: Io) {}

  out(line: string): void {
    this.io.stdout(`${line}\n`);
  }

  err(line: string): void {
    this.io.stderr(`${line}\n`);
  }
}
