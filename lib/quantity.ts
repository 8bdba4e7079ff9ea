/** Kubernetes resource quantities ("500m", "2Gi", "1e3"), parsed exactly into integer amounts. */

export class QuantityError extends Error {
  override name = 'QuantityError';
}

export type QuantityUnit = 'milli' | 'unit';

const MAX_LENGTH = 64;

const NUMBER = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))/;
const EXPONENT = /^[eE]([+-]?\d+)$/;

/** The syntax parseQuantity reads, as a regular expression for schemas (OpenAPI) that cannot call it. */
export const QUANTITY_PATTERN = '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([numkMGTPE]|[KMGTPE]i|[eE][+-]?\\d+)?$';

/** Suffix → [power of ten, power of two]. */
const SUFFIXES: ReadonlyMap<string, readonly [number, number]> = new Map([
  ['n', [-9, 0]],
  ['u', [-6, 0]],
  ['m', [-3, 0]],
  ['', [0, 0]],
  ['k', [3, 0]],
  ['M', [6, 0]],
  ['G', [9, 0]],
  ['T', [12, 0]],
  ['P', [15, 0]],
  ['E', [18, 0]],
  ['Ki', [0, 10]],
  ['Mi', [0, 20]],
  ['Gi', [0, 30]],
  ['Ti', [0, 40]],
  ['Pi', [0, 50]],
  ['Ei', [0, 60]],
]);

// Kubernetes reads the exponent as an int32.
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

// A coefficient of at most 64 digits times 2^60 is below 10^100, so dividing by a larger power of ten
// leaves a fraction that rounds up to 1.
const NEGLIGIBLE_POWER = 100;

// Any non-zero amount times 10^16 exceeds Number.MAX_SAFE_INTEGER.
const OVERFLOW_POWER = 16;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Quantities parsed before, by unit: a fleet writes the same few ("100m", "2Gi") on every container,
 * cluster and binding, and each is read on every validation and every resource sum.
 */
const PARSED: Readonly<Record<QuantityUnit, Map<string, number>>> = { milli: new Map(), unit: new Map() };
const MAX_REMEMBERED = 4_096;

/**
 * Parses a quantity into an integer count of milli-units ('milli') or base units ('unit'), rounding up
 * as Kubernetes' MilliValue() and Value() do. Numbers are read via their shortest decimal form, which is
 * what a manifest author wrote as `cpu: 0.5`.
 */
export function parseQuantity(value: string | number, unit: QuantityUnit): number {
  if (typeof value !== 'string') return parseExactly(value, unit);
  const parsed = PARSED[unit];
  const known = parsed.get(value);
  if (known !== undefined) return known;
  const amount = parseExactly(value, unit);
  if (parsed.size >= MAX_REMEMBERED) parsed.clear();
  parsed.set(value, amount);
  return amount;
}

function parseExactly(value: string | number, unit: QuantityUnit): number {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new QuantityError(`${value} is not a valid quantity: not a finite number`);
    text = String(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    // Parsed YAML or JSON reaches here without a type check at runtime.
    throw new QuantityError(`${describe(value)} is not a valid quantity: expected a string or a number`);
  }

  const invalid = (reason: string) => new QuantityError(`${quote(text)} is not a valid quantity: ${reason}`);

  if (text.length > MAX_LENGTH) throw invalid(`too long (${text.length} characters, at most ${MAX_LENGTH})`);
  if (text.length === 0) throw invalid('empty');

  const number = NUMBER.exec(text);
  if (!number) throw invalid('expected a number such as "1", "0.5" or ".5"');
  const [matched, sign, whole = '', fraction = '', bareFraction = ''] = number;
  const digits = whole + fraction + bareFraction;
  const fractionDigits = fraction.length + bareFraction.length;

  const suffix = text.slice(matched.length);
  const [exponent, twos] = powersOf(suffix, invalid);

  const coefficient = BigInt(digits);
  if (coefficient === 0n) return 0;
  if (sign === '-') throw invalid('must not be negative');

  const tens = exponent + (unit === 'milli' ? 3 : 0) - fractionDigits;
  const scaled = coefficient << BigInt(twos);
  if (tens >= OVERFLOW_POWER) throw invalid('too large');
  let result: bigint;
  if (tens >= 0) {
    result = scaled * 10n ** BigInt(tens);
  } else if (-tens > NEGLIGIBLE_POWER) {
    result = 1n;
  } else {
    const divisor = 10n ** BigInt(-tens);
    result = (scaled + divisor - 1n) / divisor;
  }
  if (result > MAX_SAFE) throw invalid('too large');
  return Number(result);
}

/** The powers of ten and of two a suffix multiplies by. */
function powersOf(suffix: string, invalid: (reason: string) => QuantityError): readonly [number, number] {
  const known = SUFFIXES.get(suffix);
  if (known) return known;
  const exponent = EXPONENT.exec(suffix)?.[1];
  if (exponent === undefined) throw invalid(`unknown suffix ${quote(suffix)}`);
  const power = BigInt(exponent);
  if (power < INT32_MIN || power > INT32_MAX) throw invalid(`exponent ${exponent} is out of range`);
  return [Number(power), 0];
}

/** A quantity as written: sign × coefficient × 2^twos × 10^tens, exactly. */
interface ExactQuantity {
  readonly negative: boolean;
  readonly coefficient: bigint;
  readonly tens: number;
  readonly twos: number;
}

function exactQuantity(value: string | number): ExactQuantity {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new QuantityError(`${value} is not a valid quantity: not a finite number`);
  const text = String(value);
  const invalid = (reason: string) => new QuantityError(`${quote(text)} is not a valid quantity: ${reason}`);
  if (text.length > MAX_LENGTH) throw invalid(`too long (${text.length} characters, at most ${MAX_LENGTH})`);
  const number = NUMBER.exec(text);
  if (!number) throw invalid('expected a number such as "1", "0.5" or ".5"');
  const [matched, sign, whole = '', fraction = '', bareFraction = ''] = number;
  const [exponent, twos] = powersOf(text.slice(matched.length), invalid);
  return { negative: sign === '-', coefficient: BigInt(whole + fraction + bareFraction), tens: exponent - fraction.length - bareFraction.length, twos };
}

// Past this many powers of ten apart, two non-zero quantities (coefficients of at most 64 digits, times
// at most 2^60) are ordered by their exponents alone, without raising ten to a power of millions.
const DECISIVE_POWER_GAP = 100;

/**
 * Orders two quantities exactly (negative, zero or positive, as Kubernetes' Quantity.Cmp), whatever their
 * size: resource models bound their last grade by 2^63 - 1, past what parseQuantity counts.
 */
export function compareQuantities(left: string | number, right: string | number): number {
  const a = exactQuantity(left);
  const b = exactQuantity(right);
  const signOf = (q: ExactQuantity) => (q.coefficient === 0n ? 0 : q.negative ? -1 : 1);
  if (signOf(a) !== signOf(b) || signOf(a) === 0) return signOf(a) - signOf(b);
  const direction = signOf(a);
  if (Math.abs(a.tens - b.tens) > DECISIVE_POWER_GAP) return a.tens > b.tens ? direction : -direction;
  const tens = Math.min(a.tens, b.tens);
  const magnitude = (q: ExactQuantity) => (q.coefficient << BigInt(q.twos)) * 10n ** BigInt(q.tens - tens);
  const [x, y] = [magnitude(a), magnitude(b)];
  return x === y ? 0 : x > y ? direction : -direction;
}

/** Kubernetes schedules CPU in millicores; every other resource is counted in whole units. */
export function resourceUnit(resourceName: string): QuantityUnit {
  return resourceName === 'cpu' ? 'milli' : 'unit';
}

const BINARY_SUFFIXES = [
  ['Ti', 1024 ** 4],
  ['Gi', 1024 ** 3],
  ['Mi', 1024 ** 2],
  ['Ki', 1024],
] as const;

/** A short canonical form of an amount from parseQuantity: "500m", "2", "512Mi", "1000". */
export function formatQuantity(amount: number, resourceName: string): string {
  if (resourceUnit(resourceName) === 'milli') {
    return amount % 1000 === 0 ? String(amount / 1000) : `${amount}m`;
  }
  if (amount !== 0) {
    for (const [suffix, multiplier] of BINARY_SUFFIXES) {
      if (amount % multiplier === 0) return `${amount / multiplier}${suffix}`;
    }
  }
  return String(amount);
}

function quote(text: string): string {
  return JSON.stringify(text.length > MAX_LENGTH ? `${text.slice(0, 16)}…` : text);
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value;
}
