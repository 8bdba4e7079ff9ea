import { expect } from 'vitest';
import { InvalidObjectError } from '../../lib/api/invalid-object-error';

/** The field and message of each cause `decode` was refused for; fails the test when it was accepted. */
export function refusalCauses(decode: () => unknown): Array<{ field: string; message: string }> {
  try {
    decode();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidObjectError);
    return (error as InvalidObjectError).causes.map(({ field, message }) => ({ field, message }));
  }
  throw new Error('expected the object to be refused');
}
