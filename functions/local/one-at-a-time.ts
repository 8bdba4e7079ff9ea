/**
 * Runs tasks one at a time, in the order they came, except that a background task starts only when
 * no other task waits: however many background tasks queue, a foreground task waits for at most the
 * one task running.
 */
export class OneAtATime {
  private readonly waiting = { foreground: [] as Array<() => void>, background: [] as Array<() => void> };
  private busy = false;

  run<T>(task: () => Promise<T>, background: boolean): Promise<T> {
    const turn = new Promise<void>((start) => (background ? this.waiting.background : this.waiting.foreground).push(start));
    if (!this.busy) this.startNext();
    return turn.then(task).finally(() => this.startNext());
  }

  private startNext(): void {
    const start = this.waiting.foreground.shift() ?? this.waiting.background.shift();
    this.busy = start !== undefined;
    start?.();
  }
}
