/**
 * What drives a function as an event source mapping would: `pollOnce` reads and invokes once; started,
 * it polls until stopped, reporting a failed round (not one the stop cut short) and pausing a second before the next.
 */
export abstract class Poller {
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(private readonly reportError: (error: unknown) => void) {}

  /** One round of reading and invoking; returns how many messages or records it read. */
  abstract pollOnce(waitTimeSeconds?: number): Promise<number>;

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.pollOnce();
      } catch (error) {
        // A round the stop cut short is no failure: on Ctrl-C the terminal stops the local endpoint too,
        // while the round is still waiting on it.
        if (!this.running) break;
        this.reportError(error);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }
}
