/**
 * Help text of our own (addHelpText: examples, the environment, exit codes, a paragraph) wrapped to the
 * terminal's width, as commander wraps its option tables. The text is written for 80 columns; what fits the
 * width is left exactly as written, and only what does not is wrapped, by what it is:
 *  - an item (`  TERM  description`, with its continuation lines): its description, under the description;
 *  - an example command: broken at a space with ` \` and continued indented, so it still runs as pasted;
 *  - a comment (`  # ...`): continued as a comment;
 *  - a paragraph (lines of one indent): wrapped as one.
 * A word longer than the line (a 66-character hash) stays whole. And the program's list of commands, each with
 * the arguments its usage names (commandTerm).
 */
import type { Command } from 'commander';

/** A command line in an example (`swapx …`, `try: SWAPX_BASE_URL=… swapx chains`); a line an earlier one continued (` \`) is one too. */
const COMMAND = /^(?:[a-z]+: )?(swapx |printf |[A-Z_]+=)/;
/** An item: a term, two spaces or more, its description (a command never holds two spaces). */
const ITEM = /^( +)(\S(?:\S| (?! ))*) {2,}(?=\S)/;

interface Unit {
  lines: string[];
  kind: 'item' | 'command' | 'comment' | 'text';
  /** where a continuation line starts */
  indent: number;
}

const width = (line: string) => [...line].length;
const indentOf = (line: string) => line.length - line.trimStart().length;

/** Groups the lines into what is wrapped as one. */
function units(lines: readonly string[]): Unit[] {
  const out: Unit[] = [];
  let continued = false;
  for (const line of lines) {
    const body = line.trimStart();
    const last = out.at(-1);
    const item = ITEM.exec(line);
    const paragraph = last?.kind === 'text' && last.lines[0]!.trim() !== '' && !last.lines.at(-1)!.endsWith(':');
    if (continued && last) last.lines.push(line);
    else if (body === '') out.push({ lines: [line], kind: 'text', indent: 0 });
    else if (last?.kind === 'item' && indentOf(line) === last.indent) last.lines.push(line);
    else if (item) out.push({ lines: [line], kind: 'item', indent: item[0].length });
    else if (COMMAND.test(body)) out.push({ lines: [line], kind: 'command', indent: indentOf(line) + 2 });
    else if (body.startsWith('# ')) out.push({ lines: [line], kind: 'comment', indent: indentOf(line) });
    else if (paragraph && indentOf(line) === last.indent) last.lines.push(line);
    else out.push({ lines: [line], kind: 'text', indent: indentOf(line) });
    continued = out.at(-1)!.kind === 'command' && line.endsWith(' \\');
  }
  return out;
}

/** Words greedily into lines of at most `max` columns: the first after `first`, the rest after `rest`. */
function fill(words: readonly string[], first: string, rest: string, max: number, end = ''): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && width(line) + 1 + width(word) + width(end) > max) {
      lines.push(line + end);
      line = rest;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

function wrapUnit(unit: Unit, max: number): string[] {
  if (unit.lines.every((line) => width(line) <= max)) return unit.lines;
  const pad = ' '.repeat(unit.indent);
  const words = (lines: readonly string[]) => lines.join(' ').trim().split(/\s+/);
  switch (unit.kind) {
    case 'item': {
      const head = unit.lines[0]!.slice(0, unit.indent);
      return fill(words(unit.lines.map((line, i) => (i === 0 ? line.slice(unit.indent) : line))), head, pad, max);
    }
    case 'command':
      // Each line of a command already continued keeps its break; only a line too wide is broken again.
      return unit.lines.flatMap((line) => {
        if (width(line) <= max) return [line];
        const own = line.endsWith(' \\');
        const lines = fill(words([own ? line.slice(0, -2) : line]), line.slice(0, indentOf(line)), pad, max, ' \\');
        if (own) lines[lines.length - 1] += ' \\';
        return lines;
      });
    case 'comment':
      return fill(words([unit.lines[0]!.trimStart().slice(2)]), `${pad}# `, `${pad}# `, max);
    default:
      return fill(words(unit.lines), pad, pad, max);
  }
}

/** `text` wrapped to `max` columns. */
export function wrapHelp(text: string, max: number): string {
  return units(text.split('\n'))
    .flatMap((unit) => wrapUnit(unit, max))
    .join('\n');
}

/**
 * A command as the program's help lists it: its name, [options], and its arguments as its usage line names them,
 * which commander's list ignores (tokens holds its chain optional, to answer a missing one in its own words, but
 * its usage says <blockchainId>: it is required).
 */
export function commandTerm(cmd: Command): string {
  const args = cmd
    .usage()
    .split(' ')
    .filter((word) => word !== '[options]' && !(word === '[command]' && cmd.commands.length > 0));
  return [cmd.name(), ...(cmd.options.length ? ['[options]'] : []), ...args].join(' ');
}
