/**
 * Runs `stop` on the first SIGINT or SIGTERM, then exits. A signal that comes while stopping is the same
 * request: Ctrl-C reaches the process from the terminal and again through npm and tsx, and a second signal
 * with no listener would end it before what it started (a moto_server) is stopped.
 */
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping: Promise<void> | undefined;
  const onSignal = () => {
    stopping ??= stop().then(() => process.exit(0));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
