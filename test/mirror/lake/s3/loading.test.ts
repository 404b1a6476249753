/**
 * The lake's S3 modules are loaded only for an s3:// --out: no module the program loads at its start (the bin's
 * program, every command, the sync's destinations picked by scheme) imports them statically, so a lookup or a sync
 * into a folder or Postgres pays nothing for them; the caller reaches them with import(). And they import nothing
 * of the shell (src/cli, src/commands): the library's floor.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');

/** The relative modules `file` imports statically (a type-only import is erased; `import { type A }` is kept by verbatimModuleSyntax). */
function staticImports(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'(\.[^']+)'/gm;
  for (let match = re.exec(source); match; match = re.exec(source)) {
    out.push(path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, '.ts')));
  }
  return out;
}

function staticGraph(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = entries.map((entry) => path.join(root, entry));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !fs.existsSync(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}

describe('the S3 client’s loading', () => {
  it('is in no module the program loads at its start, nor in what any sync loads (the command’s run, openMirror)', () => {
    // The sync's run is itself imported when a sync runs (commands/sync/command.ts): its graph is a second start.
    // So is the export's (commands/swaps/run.ts): an export to a file or stdout pays nothing for an s3:// -o either.
    const graph = staticGraph(['src/bin/program.ts', 'src/main.ts', 'src/index.ts', 'src/commands/sync/run.ts', 'src/commands/swaps/run.ts']);
    expect(graph.size).toBeGreaterThan(50);
    expect(graph).toContain(path.join(root, 'src/commands/sync/open-mirror.ts'));
    expect(graph).toContain(path.join(root, 'src/commands/swap.ts'));
    expect(graph).toContain(path.join(root, 'src/export/run-export.ts'));
    const s3 = (file: string) => file.includes(`${path.sep}mirror${path.sep}lake${path.sep}`) || file.includes(`${path.sep}export${path.sep}object${path.sep}`);
    expect([...graph].filter(s3)).toEqual([]);
  });

  it('imports nothing of the shell', () => {
    const lake = path.join(root, 'src/mirror/lake');
    const files = fs.readdirSync(lake, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    const graph = staticGraph(files.map((name) => path.relative(root, path.join(lake, name))));
    const shell = [...graph].filter((file) => /[\\/]src[\\/](cli|commands)[\\/]/.test(file));
    expect(shell).toEqual([]);
  });
});
