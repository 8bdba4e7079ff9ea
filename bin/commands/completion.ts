import { Argument, Command } from 'commander';
import { completableKinds } from '../client/kind-aliases';
import type { CommandContext } from './context';

/** The commands whose first argument is a kind. */
const KIND_COMMANDS = ['get', 'describe', 'delete'];

/** A bash completion function for `root`: its commands, each command's options, and the kinds (plural and short names) after get, describe and delete. */
function bashCompletion(root: Command): string {
  const commands = root.commands.map((command) => command.name());
  const kinds = completableKinds();
  const cases = root.commands.map((command) => {
    const options = command.options.flatMap((option) => [option.short, option.long]).filter((flag): flag is string => Boolean(flag));
    const choices = command.registeredArguments.flatMap((argument) => argument.argChoices ?? []);
    const words = [...options, ...choices, ...(KIND_COMMANDS.includes(command.name()) ? kinds : [])];
    return `    ${command.name()}) words="${words.join(' ')}" ;;`;
  });
  return [
    '# outrank completion for bash (and zsh through bashcompinit)',
    '_outrank() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" words',
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    COMPREPLY=($(compgen -W "${commands.join(' ')} --help --version" -- "$cur"))`,
    '    return',
    '  fi',
    '  case "${COMP_WORDS[1]}" in',
    ...cases,
    '    *) words="" ;;',
    '  esac',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '}',
    'complete -F _outrank outrank',
  ].join('\n');
}

export function completionCommand(context: CommandContext, root: Command): Command {
  return new Command('completion')
    .description('print a shell completion script: source <(outrank completion bash)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh']))
    .action((shell: 'bash' | 'zsh') => {
      const script = bashCompletion(root);
      context.out(shell === 'zsh' ? `autoload -U +X bashcompinit && bashcompinit\n${script}` : script);
    });
}
