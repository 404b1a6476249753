/**
 * The config file itself: one JSON document, read once, rewritten whole and
 * atomically (temporary file, fsync, rename, fsync of the folder) with its
 * mode, so a crash or a full disk never leaves half a credential store.
 * Synchronous on purpose: a command reads its profile before it does anything else.
 */
import fs from 'node:fs';
import { writeFileAtomicSync } from '../fs/atomic-file.js';
import { outputTarget } from '../fs/output-target.js';

export class JsonFile<T extends object> {
  private data: T;

  /** Throws SyntaxError when the file is not JSON; a missing file reads as `defaults`. */
  constructor(
    readonly file: string,
    defaults: T,
    private readonly mode: number,
  ) {
    let text: string | undefined;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    this.data = text === undefined ? defaults : { ...defaults, ...(JSON.parse(text) as T) };
  }

  get<K extends keyof T>(key: K): T[K] {
    return this.data[key];
  }

  set<K extends keyof T>(key: K, value: T[K]): void {
    const next = { ...this.data, [key]: value };
    // A store kept as a link (dotfiles in a repository) stays a link: the file it names is rewritten.
    const target = outputTarget(this.file, 'the profile store');
    try {
      writeFileAtomicSync(target, `${JSON.stringify(next, null, '\t')}\n`, this.mode);
    } catch (error) {
      // It is this file that cannot be written (a read-only disk, a full one), not the temporary one beside it.
      throw Object.assign(error as Error, { path: this.file });
    }
    this.data = next;
  }
}
