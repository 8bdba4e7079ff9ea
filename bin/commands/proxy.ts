import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_ACCEPT_HOSTS, parseAcceptHosts } from '../../lib/http/loopback-guard';
import { startProxy } from '../client/proxy';
import type { CommandContext } from './context';
import { serverOption, signerFor, type ServerOptions } from './options';

interface ProxyCommandOptions extends ServerOptions {
  readonly port: number;
  readonly acceptHosts: readonly RegExp[];
}

/** The console as `npm run build` bundled it: beside the compiled command line, or in dist/ when run from the sources. */
function consoleDir(): string | undefined {
  const candidates = [new URL('console/', import.meta.url), new URL('../../dist/console/', import.meta.url)].map((url) => fileURLToPath(url));
  return candidates.find((folder) => existsSync(`${folder}/app.js`));
}

function port(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) throw new InvalidArgumentError('must be a port number (0 picks a free one)');
  return value;
}

function acceptHosts(text: string): RegExp[] {
  try {
    return parseAcceptHosts(text);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

export function proxyCommand(context: CommandContext): Command {
  return new Command('proxy')
    .description('serve the web console and the API on 127.0.0.1, signing requests for a deployed outrank with your AWS credentials (as kubectl proxy)')
    .option('-p, --port <port>', 'port on 127.0.0.1', port, 8001)
    .addOption(
      new Option('--accept-hosts <regexps>', 'comma-separated regular expressions for the Host names served; others are refused (DNS rebinding)')
        .argParser(acceptHosts)
        .default(parseAcceptHosts(DEFAULT_ACCEPT_HOSTS), DEFAULT_ACCEPT_HOSTS),
    )
    .addOption(serverOption())
    .action(async (options: ProxyCommandOptions) => {
      const proxy = await startProxy({
        server: options.server,
        port: options.port,
        signer: signerFor(options.server),
        consoleDir: consoleDir(),
        guard: { acceptHosts: options.acceptHosts, setting: '--accept-hosts' },
      });
      context.out(`Serving the API of ${options.server} and the console at ${proxy.url}/ (Ctrl-C to stop)`);
      await new Promise<void>((resolve) => {
        const stop = () => void proxy.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
