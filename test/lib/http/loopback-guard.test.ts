/**
 * The Host and Origin rules of `outrank proxy` and the `npm start` gateway (DNS rebinding, cross-origin
 * requests); the servers themselves are tested refusing in test/bin/proxy.test.ts and
 * test/functions/http-gateway.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCEPT_HOSTS, loopbackRefusal, parseAcceptHosts, type LoopbackGuard } from '../../../lib/http/loopback-guard';

const loopback: LoopbackGuard = { acceptHosts: parseAcceptHosts(DEFAULT_ACCEPT_HOSTS), setting: '--accept-hosts' };

describe('the loopback guard', () => {
  it.each(['localhost', 'localhost:8001', 'LOCALHOST:8001', '127.0.0.1', '127.0.0.1:8001', '[::1]', '[::1]:8001'])('accepts Host %s without an Origin', (host) => {
    expect(loopbackRefusal({ host }, loopback)).toBeUndefined();
  });

  it.each(['attacker.example', 'attacker.example:8001', 'localhost.attacker.example', '127.0.0.1.attacker.example:8001', 'evil-localhost', '::1', '[::2]:8001', '10.0.0.1:8001', '', 'localhost:8001/path', 'local host'])(
    'refuses Host %j, naming the setting and the threat',
    (host) => {
      const refusal = loopbackRefusal({ host }, loopback);
      expect(refusal).toContain(`the Host ${JSON.stringify(host)} is not one this server accepts (--accept-hosts ^localhost$,^127\\.0\\.0\\.1$,^\\[::1\\]$)`);
      expect(refusal).toContain('DNS rebinding');
    },
  );

  it('refuses a request without a Host', () => {
    expect(loopbackRefusal({}, loopback)).toContain('is not one this server accepts');
  });

  it.each([
    ['localhost:8001', 'http://localhost:8001'],
    ['127.0.0.1:8001', 'http://127.0.0.1:8001'],
    ['[::1]:8001', 'http://[::1]:8001'],
    ['localhost', 'http://localhost'],
    ['localhost:80', 'http://localhost'],
    ['LocalHost:8001', 'http://localhost:8001'],
  ])('accepts Host %s with its own Origin %s (the console served there)', (host, origin) => {
    expect(loopbackRefusal({ host, origin }, loopback)).toBeUndefined();
  });

  it.each([
    ['localhost:8001', 'http://attacker.example'],
    ['localhost:8001', 'http://localhost:3000'],
    ['localhost:8001', 'http://127.0.0.1:8001'],
    ['localhost:8001', 'https://localhost:8001'],
    ['localhost:8001', 'null'],
    ['localhost:8001', ''],
  ])('refuses Host %s with the Origin %j of another page', (host, origin) => {
    expect(loopbackRefusal({ host, origin }, loopback)).toBe(
      `the request comes from a page of another origin (Origin ${JSON.stringify(origin)}): only pages served by http://${host} itself may call it, and cross-origin requests are refused`,
    );
  });

  it('accepts what wider accept-hosts name, and still only their own origin', () => {
    const wider: LoopbackGuard = { acceptHosts: parseAcceptHosts(String.raw`^localhost$,^outrank\.test$`), setting: 'OUTRANK_ACCEPT_HOSTS' };
    expect(loopbackRefusal({ host: 'outrank.test:8080' }, wider)).toBeUndefined();
    expect(loopbackRefusal({ host: 'outrank.test:8080', origin: 'http://outrank.test:8080' }, wider)).toBeUndefined();
    expect(loopbackRefusal({ host: 'outrank.test:8080', origin: 'http://localhost:8080' }, wider)).toContain('another origin');
    expect(loopbackRefusal({ host: '127.0.0.1:8080' }, wider)).toContain(String.raw`(OUTRANK_ACCEPT_HOSTS ^localhost$,^outrank\.test$)`);
  });

  it('reads accept-hosts as kubectl proxy does, refusing what is no regular expression or names none', () => {
    expect(parseAcceptHosts(String.raw`^a$,^b\.c$`).map((pattern) => pattern.source)).toEqual(['^a$', String.raw`^b\.c$`]);
    expect(() => parseAcceptHosts('^a$,(')).toThrow('"(" is not a regular expression');
    expect(() => parseAcceptHosts('')).toThrow('must name at least one regular expression for host names');
    expect(() => parseAcceptHosts(',')).toThrow('must name at least one regular expression for host names');
  });
});
