/**
 * What drives a function as an event source mapping would: `pollOnce` reads and invokes once; started,
 * it polls until stopped, reporting a failed round and pausing a second before the next.
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
        this.reportError(error);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }
}
