import { Command, CommanderError } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { ScenarioError } from '../lib/simulate/load-scenario';
import { CliError } from './client/cli-error';
import { applyCommand } from './commands/apply';
import { checkCommand } from './commands/check';
import { completionCommand } from './commands/completion';
import { CommandContext, type Io } from './commands/context';
import { deleteCommand } from './commands/delete';
import { describeCommand } from './commands/describe';
import { getCommand } from './commands/get';
import { proxyCommand } from './commands/proxy';
import { simulateCommand } from './commands/simulate';

function program(context: CommandContext, io: Io): Command {
  const root = new Command('outrank')
    .description('Priority-and-preemption scheduler for multi-cluster workload bindings')
    .version(packageJson.version, '-v, --version', 'print the version of outrank')
    .showHelpAfterError()
    // Set before the subcommands are added, which inherit them: usage errors come back as a
    // CommanderError instead of ending the process, so tests can run the command line in-process.
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  for (const command of [simulateCommand, applyCommand, getCommand, describeCommand, deleteCommand, checkCommand, proxyCommand]) {
    root.addCommand(command(context).copyInheritedSettings(root));
  }
  root.addCommand(completionCommand(context, root).copyInheritedSettings(root));
  return root;
}

/** Failures the user caused and can fix: the message says what to do, a stack trace would only distract. */
function isExpected(error: unknown): boolean {
  return error instanceof ScenarioError || (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Runs the command line on `args` (without "node outrank") and returns the exit code. */
export async function runCli(args: readonly string[], io: Io): Promise<number> {
  const context = new CommandContext(io);
  try {
    await program(context, io).parseAsync(args, { from: 'user' });
    return context.failed ? 1 : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof CliError) {
      context.err(error.message);
      return 1;
    }
    context.err(`error: ${(error as Error).message}`);
    if (!isExpected(error)) context.err((error as Error).stack ?? '');
    return 1;
  }
}
