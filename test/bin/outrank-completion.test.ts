import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { outrank } from './support/run-cli';

const run = promisify(execFile);

/** What bash offers after `words`, the last being the word being completed, with the script `outrank completion <shell>` prints. */
async function offered(shell: 'bash' | 'zsh', words: readonly string[]): Promise<string[]> {
  const { stdout: script } = await outrank('completion', shell);
  const body = shell === 'zsh' ? script.split('\n').slice(1).join('\n') : script;
  const line = `${body}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _outrank; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const { stdout } = await run('bash', ['-c', line]);
  return stdout.split('\n').filter(Boolean);
}

describe('outrank completion', () => {
  it('completes command names', async () => {
    expect(await offered('bash', ['outrank', 's'])).toEqual(['simulate']);
  });

  it('completes the kinds after get, and a command\'s options', async () => {
    expect(await offered('bash', ['outrank', 'get', 'res'])).toEqual(['resourcebindings']);
    expect(await offered('bash', ['outrank', 'simulate', '--all'])).toEqual(['--allow-rejections']);
  });

  it('completes the names kubectl users type for a kind: bindings and the short names', async () => {
    expect(await offered('bash', ['outrank', 'get', 'bin'])).toEqual(['binding', 'bindings']);
    expect(await offered('bash', ['outrank', 'describe', 'p'])).toEqual(['pc', 'pp', 'priorityclasses', 'propagationpolicies']);
    expect(await offered('bash', ['outrank', 'delete', 'd'])).toEqual(['deploy', 'deployments']);
  });

  it('for zsh, loads bashcompinit before the same function', async () => {
    const { stdout } = await outrank('completion', 'zsh');
    expect(stdout.split('\n')[0]).toBe('autoload -U +X bashcompinit && bashcompinit');
    expect(await offered('zsh', ['outrank', 'completion', 'z'])).toEqual(['zsh']);
  });

  it('refuses another shell', async () => {
    const result = await outrank('completion', 'fish');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("Allowed choices are bash, zsh");
  });
});
