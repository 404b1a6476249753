import type { Command } from 'commander';
import type { Context } from './context.js';

/** A handler gets its dependencies and returns an exit code. */
export type Handler = (ctx: Context) => Promise<number>;

/** Runs a handler with a fresh context and maps whatever it throws to an exit code. */
export type Run = (handler: Handler) => Promise<void>;

/** Each command module declares itself on the program. */
export type Register = (program: Command, run: Run) => void;
