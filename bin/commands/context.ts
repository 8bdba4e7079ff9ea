/** Where a command's output goes: the process's streams, or buffers when a test runs the command line in-process. */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Characters written at once by outChunks: large enough that writes cost little, small beside a large result. */
const WRITE_BATCH = 1 << 20;

/** What a command writes through, and whether something failed that it carried on past. */
export class CommandContext {
  /** Set when one object failed and the command went on with the others (as kubectl apply -f does); the exit code is then 1. */
  failed = false;

  constructor(private readonly io: Io) {}

  out(line: string): void {
    this.io.stdout(`${line}\n`);
  }

  /** A line given in pieces (jsonChunks), written a batch of about WRITE_BATCH characters at a time. */
  outChunks(chunks: Iterable<string>): void {
    let batch: string[] = [];
    let length = 0;
    for (const chunk of chunks) {
      batch.push(chunk);
      length += chunk.length;
      if (length >= WRITE_BATCH) {
        this.io.stdout(batch.join(''));
        batch = [];
        length = 0;
      }
    }
    this.io.stdout(`${batch.join('')}\n`);
  }

  err(line: string): void {
    this.io.stderr(`${line}\n`);
  }
}
