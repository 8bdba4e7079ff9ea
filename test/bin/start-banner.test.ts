import { describe, expect, it } from 'vitest';
import { startBanner } from '../../bin/start-banner';

const facts = { apiUrl: 'http://localhost:8080', consoleBuilt: true, endpointUrl: 'http://localhost:4566', endpointStarted: false, identityHeaderTrusted: false };

describe('the npm start banner', () => {
  it('is one line naming the URL served, the console and the endpoint', () => {
    const banner = startBanner(facts);
    expect(banner.trimEnd().split('\n')).toHaveLength(1);
    expect(banner).toContain('outrank serving on http://localhost:8080, console http://localhost:8080/ (AWS endpoint http://localhost:4566)');
    expect(banner).toContain('try: npx outrank get bindings;');
  });

  it('names the server in its example when it is not the command line\'s default', () => {
    expect(startBanner({ ...facts, apiUrl: 'http://localhost:9191' })).toContain('npx outrank get bindings --server http://localhost:9191;');
  });

  it('says when the endpoint was started for this run, or the console is not built', () => {
    expect(startBanner({ ...facts, endpointStarted: true })).toContain('moto_server of this run');
    expect(startBanner({ ...facts, consoleBuilt: false })).toContain('console not built: npm run build');
  });

  it('warns on a line of its own when the identity header is trusted', () => {
    const lines = startBanner({ ...facts, identityHeaderTrusted: true }).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^WARNING: the x-outrank-identity header is trusted/);
  });
});
