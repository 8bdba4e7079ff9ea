import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatQuantity, parseQuantity, QuantityError, resourceUnit, type QuantityUnit } from '../../lib/quantity';

describe('parseQuantity', () => {
  it.each<[string | number, QuantityUnit, number]>([
    ['500m', 'milli', 500],
    ['2', 'milli', 2000],
    ['1.5', 'milli', 1500],
    ['.5', 'milli', 500],
    ['5.', 'milli', 5000],
    ['+1', 'milli', 1000],
    ['1e3', 'milli', 1_000_000],
    ['1E-3', 'milli', 1],
    ['1e-4', 'milli', 1],
    ['100n', 'milli', 1],
    ['1u', 'milli', 1],
    ['1001u', 'milli', 2],
    ['0.0001', 'milli', 1],
    ['1.5e+2', 'milli', 150_000],
    ['0', 'milli', 0],
    ['0.000', 'milli', 0],
    ['-0', 'milli', 0],
    ['0Ei', 'milli', 0],
    ['1e-2147483648', 'milli', 1],
    ['0e2147483647', 'milli', 0],
    ['2Gi', 'unit', 2 * 1024 ** 3],
    ['1.5Gi', 'unit', 1.5 * 1024 ** 3],
    ['1Ki', 'unit', 1024],
    ['1Pi', 'unit', 1024 ** 5],
    ['0.1', 'unit', 1],
    ['0.5Ki', 'unit', 512],
    ['0.1Ki', 'unit', 103],
    ['1k', 'unit', 1000],
    ['1M', 'unit', 1_000_000],
    ['1G', 'unit', 1e9],
    ['1T', 'unit', 1e12],
    ['1P', 'unit', 1e15],
    ['007', 'unit', 7],
    ['1m', 'unit', 1],
    ['1000m', 'unit', 1],
    ['1001m', 'unit', 2],
    [2, 'milli', 2000],
    [0.5, 'milli', 500],
    [0.1, 'unit', 1],
    [1e-7, 'milli', 1],
    [-0, 'unit', 0],
    [Number.MAX_SAFE_INTEGER, 'unit', Number.MAX_SAFE_INTEGER],
  ])('%j as %s → %d', (value, unit, expected) => {
    expect(parseQuantity(value, unit)).toBe(expected);
  });

  it.each<[string | number, QuantityUnit, string]>([
    ['', 'unit', '"" is not a valid quantity: empty'],
    ['1.2.3', 'unit', '"1.2.3" is not a valid quantity: unknown suffix ".3"'],
    ['Gi', 'unit', '"Gi" is not a valid quantity: expected a number'],
    ['.', 'unit', '"." is not a valid quantity: expected a number'],
    ['1 Gi', 'unit', '"1 Gi" is not a valid quantity: unknown suffix " Gi"'],
    [' 1', 'unit', '" 1" is not a valid quantity: expected a number'],
    ['12x', 'unit', '"12x" is not a valid quantity: unknown suffix "x"'],
    ['1K', 'unit', 'unknown suffix "K"'],
    ['1ki', 'unit', 'unknown suffix "ki"'],
    ['1e', 'unit', 'unknown suffix "e"'],
    ['1e1.5', 'unit', 'unknown suffix "e1.5"'],
    ['1Gie3', 'unit', 'unknown suffix "Gie3"'],
    ['--1', 'unit', '"--1" is not a valid quantity: expected a number'],
    ['-1', 'unit', '"-1" is not a valid quantity: must not be negative'],
    ['-500m', 'milli', 'must not be negative'],
    [-1, 'milli', '"-1" is not a valid quantity: must not be negative'],
    ['1e2147483648', 'unit', 'exponent 2147483648 is out of range'],
    ['1e-2147483649', 'unit', 'exponent -2147483649 is out of range'],
    ['1Ei', 'unit', '"1Ei" is not a valid quantity: too large'],
    ['1Ei', 'milli', 'too large'],
    ['1Pi', 'milli', 'too large'],
    ['8Pi', 'unit', 'too large'],
    ['1E', 'unit', 'too large'],
    ['1e16', 'unit', 'too large'],
    ['1e999999', 'unit', 'too large'],
    ['9007199254740992', 'unit', 'too large'],
    [1e21, 'unit', '"1e+21" is not a valid quantity: too large'],
    [Number.NaN, 'unit', 'NaN is not a valid quantity: not a finite number'],
    [Number.POSITIVE_INFINITY, 'unit', 'not a finite number'],
    ['1'.repeat(65), 'unit', 'too long (65 characters, at most 64)'],
  ])('%j as %s is rejected: %s', (value, unit, message) => {
    expect(() => parseQuantity(value, unit)).toThrow(QuantityError);
    expect(() => parseQuantity(value, unit)).toThrow(message);
  });

  it('accepts 64 characters', () => {
    expect(parseQuantity(`${'0'.repeat(63)}1`, 'unit')).toBe(1);
  });

  it('rejects values that are neither strings nor numbers', () => {
    expect(() => parseQuantity(null as never, 'unit')).toThrow('null is not a valid quantity');
    expect(() => parseQuantity({} as never, 'unit')).toThrow('object is not a valid quantity');
  });

  it('keeps a too-long value out of the message', () => {
    expect(() => parseQuantity('9'.repeat(1000), 'unit')).toThrow(/^"9{16}…" is not a valid quantity: too long/);
  });

  // Multiplier as numerator / denominator, for exact bigint arithmetic.
  const suffixes: [string, bigint, bigint][] = [
    ['n', 1n, 10n ** 9n],
    ['u', 1n, 10n ** 6n],
    ['m', 1n, 1000n],
    ['', 1n, 1n],
    ['k', 10n ** 3n, 1n],
    ['M', 10n ** 6n, 1n],
    ['G', 10n ** 9n, 1n],
    ['T', 10n ** 12n, 1n],
    ['P', 10n ** 15n, 1n],
    ['E', 10n ** 18n, 1n],
    ['Ki', 2n ** 10n, 1n],
    ['Mi', 2n ** 20n, 1n],
    ['Gi', 2n ** 30n, 1n],
    ['Ti', 2n ** 40n, 1n],
    ['Pi', 2n ** 50n, 1n],
    ['Ei', 2n ** 60n, 1n],
    ...[-12, -5, -1, 0, 1, 4, 9].flatMap((e): [string, bigint, bigint][] => [
      [`e${e}`, e >= 0 ? 10n ** BigInt(e) : 1n, e >= 0 ? 1n : 10n ** BigInt(-e)],
      [`E${e >= 0 ? '+' : ''}${e}`, e >= 0 ? 10n ** BigInt(e) : 1n, e >= 0 ? 1n : 10n ** BigInt(-e)],
    ]),
  ];

  it('equals the integer times the suffix multiplier, rounded up, or is too large', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.constantFrom(...suffixes),
        fc.constantFrom<QuantityUnit>('milli', 'unit'),
        (n, [suffix, numerator, denominator], unit) => {
          const scaled = n * numerator * (unit === 'milli' ? 1000n : 1n);
          const expected = (scaled + denominator - 1n) / denominator;
          const text = `${n}${suffix}`;
          if (expected <= BigInt(Number.MAX_SAFE_INTEGER)) {
            expect(parseQuantity(text, unit)).toBe(Number(expected));
          } else {
            expect(() => parseQuantity(text, unit)).toThrow('too large');
          }
        },
      ),
    );
  });

  it('reads a decimal fraction exactly', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,12}$/), fc.stringMatching(/^\d{0,12}$/), (whole, fraction) => {
        const exact = BigInt(whole + fraction) * 1000n;
        const denominator = 10n ** BigInt(fraction.length);
        expect(parseQuantity(`${whole}.${fraction}`, 'milli')).toBe(
          Number((exact + denominator - 1n) / denominator),
        );
      }),
    );
  });
});

describe('resourceUnit', () => {
  it.each([
    ['cpu', 'milli'],
    ['memory', 'unit'],
    ['ephemeral-storage', 'unit'],
    ['pods', 'unit'],
    ['nvidia.com/gpu', 'unit'],
    ['requests.cpu', 'unit'],
  ])('%s → %s', (name, unit) => {
    expect(resourceUnit(name)).toBe(unit);
  });
});

describe('formatQuantity', () => {
  it.each([
    [500, 'cpu', '500m'],
    [2000, 'cpu', '2'],
    [1500, 'cpu', '1500m'],
    [0, 'cpu', '0'],
    [-250, 'cpu', '-250m'],
    [0, 'memory', '0'],
    [1000, 'memory', '1000'],
    [1024, 'memory', '1Ki'],
    [1536, 'memory', '1536'],
    [512 * 1024 ** 2, 'memory', '512Mi'],
    [1536 * 1024 ** 2, 'memory', '1536Mi'],
    [2 * 1024 ** 3, 'memory', '2Gi'],
    [-2 * 1024 ** 3, 'memory', '-2Gi'],
    [1024 ** 5, 'ephemeral-storage', '1024Ti'],
    [3, 'pods', '3'],
    [4, 'nvidia.com/gpu', '4'],
  ])('%d %s → %s', (amount, name, text) => {
    expect(formatQuantity(amount, name)).toBe(text);
  });

  it('round-trips through parseQuantity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom('cpu', 'memory', 'pods'),
        (amount, name) => {
          expect(parseQuantity(formatQuantity(amount, name), resourceUnit(name))).toBe(amount);
        },
      ),
    );
  });
});

describe('parseQuantity, read again', () => {
  it('answers a quantity parsed before as the first time, in each unit', () => {
    expect([parseQuantity('1500m', 'milli'), parseQuantity('1500m', 'milli')]).toEqual([1500, 1500]);
    expect([parseQuantity('1500m', 'unit'), parseQuantity('1500m', 'unit')]).toEqual([2, 2]);
  });

  it('refuses an invalid quantity every time it is read', () => {
    for (let read = 0; read < 2; read++) expect(() => parseQuantity('12parsecs', 'unit')).toThrow(QuantityError);
  });

  it('parses correctly past the number of quantities it remembers', () => {
    const amounts = Array.from({ length: 10_000 }, (_, i) => i);
    for (const amount of amounts) expect(parseQuantity(`${amount}Ki`, 'unit')).toBe(amount * 1024);
    for (const amount of amounts.slice(0, 10)) expect(parseQuantity(`${amount}Ki`, 'unit')).toBe(amount * 1024);
  });
});
