/**
 * The host's reference time: `../shared/bench/calibrate.mjs` beside the checkout (or beside a directory
 * above it, for a checkout in a worktree) times a fixed piece of object-heavy JavaScript that no
 * project code touches and prints the median of three runs in seconds. Hosts differ in speed by up to
 * 1.8×: a time divided by the reference of the same run compares across them. Measured once per
 * `npm run bench`, before any section, and reused by every section; the scale curve measures it again
 * beside each of its processes (referenceNow).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt } from './stats';

const CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));

/** The nearest `<parent>/shared/bench/calibrate.mjs` above the checkout, if any. */
function calibrationScript(): string | undefined {
  for (let directory = dirname(CHECKOUT); ; directory = dirname(directory)) {
    const script = join(directory, 'shared', 'bench', 'calibrate.mjs');
    if (existsSync(script)) return script;
    if (dirname(directory) === directory) return undefined;
  }
}

let measured: { seconds: number | undefined } | undefined;

/** The reference time in seconds, measured at the first call of the process; undefined where the script is absent. */
export function referenceSeconds(): number | undefined {
  measured ??= { seconds: referenceNow() };
  return measured.seconds;
}

/**
 * The reference time measured now, for a timing taken right after it: a host shared with other tenants
 * changes speed within a run of the benchmarks, and a ratio is fair only to the reference of its moment.
 */
export function referenceNow(): number | undefined {
  const script = calibrationScript();
  const seconds = script === undefined ? Number.NaN : Number(execFileSync(process.execPath, [script], { encoding: 'utf8' }).trim());
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** A time in seconds divided by the reference, for a table cell ('–' without a reference). */
export function perReference(seconds: number): string {
  const reference = referenceSeconds();
  return reference === undefined ? '–' : fmt(seconds / reference);
}

/**
 * The sentence each section opens with: the reference its ratios divide by, or, for a section that
 * measures one beside each process it times (`each`), the one of the start and what its ratios use.
 */
export function referenceLine(each = false): string {
  const reference = referenceSeconds();
  if (reference === undefined) return 'Reference time: not measured (no ../shared/bench/calibrate.mjs beside the checkout); ratios are left out (–).';
  const measured = `**${fmt(reference)} s** (../shared/bench/calibrate.mjs, median of three, measured once at the start)`;
  return each
    ? `Reference time at the start of this run: ${measured}; this section measures it again right before each process it times, and "÷ reference" divides by that one (its "reference s").`
    : `Reference time of this run: ${measured}; "÷ reference" divides a time in seconds by it.`;
}
