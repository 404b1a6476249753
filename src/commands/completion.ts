/** `swapx completion bash|zsh|fish`: print a shell completion script; `swapx __profiles` (hidden) feeds it profile names. */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${…} here is shell syntax, not a template
import { UsageError } from '../api/errors.js';
import type { Register } from '../cli/command.js';
import { PROFILES_COMMAND, SHELLS, type Shell } from '../cli/completion-shells.js';

export const register: Register = (program, run) => {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .argument('<shell>', SHELLS.join(', '))
    .addHelpText(
      'after',
      [
        '',
        'Examples (create the folder first: mkdir -p ...):',
        '  swapx completion bash > ~/.local/share/bash-completion/completions/swapx',
        '  # zsh: ~/.zfunc on your fpath: fpath=(~/.zfunc $fpath) in ~/.zshrc',
        '  swapx completion zsh > ~/.zfunc/_swapx',
        '  swapx completion fish > ~/.config/fish/completions/swapx.fish',
      ].join('\n'),
    )
    .action((shell: string) =>
      run(async (ctx) => {
        if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`completion: unknown shell '${shell}' (known: ${SHELLS.join(', ')})`);
        // The generator (and the sync formats it completes) loads only for this command: every other start is lighter.
        const { completionScript } = await import('../cli/completion.js');
        ctx.io.stdout.write(completionScript(shell as Shell, program));
        return 0;
      }),
    );
  program
    .command(PROFILES_COMMAND, { hidden: true })
    .description('the stored profile names, one a line (for completion)')
    .action(() =>
      run(async (ctx) => {
        const names = ctx.store.profileNames();
        ctx.io.stdout.write(names.map((name) => `${name}\n`).join(''));
        return 0;
      }),
    );
};
