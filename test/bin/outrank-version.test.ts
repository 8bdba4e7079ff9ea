import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { outrank, outrankProcess } from './support/run-cli';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('outrank --version', () => {
  it.each(['--version', '-v'])('%s prints the version of the package and exits 0', async (flag) => {
    expect(await outrank(flag)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('the installed command (the compiled bundle) says the same', async () => {
    expect(await outrankProcess(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});
