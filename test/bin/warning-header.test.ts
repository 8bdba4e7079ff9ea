import { describe, expect, it } from 'vitest';
import { warningTexts } from '../../bin/client/warning-header';

describe('warningTexts (the Warning header as the Kubernetes API server writes it)', () => {
  it.each<[string | null, string[]]>([
    [null, []],
    ['', []],
    ['299 - "unknown field \\"spec.replica\\""', ['unknown field "spec.replica"']],
    ['299 - "a, with a comma", 299 - "b"', ['a, with a comma', 'b']],
    ['299 example.com "from another agent"', ['from another agent']],
  ])('%j → %j', (header, texts) => {
    expect(warningTexts(header)).toEqual(texts);
  });
});
