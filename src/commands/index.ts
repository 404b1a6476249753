/** Every command, in the order `swapx --help` lists them. */
import type { Register } from '../cli/command.js';
import { register as auth } from './auth.js';
import { register as bridges } from './bridges.js';
import { register as sandbox } from './sandbox.js';
import { register as chains } from './chains.js';
import { register as completion } from './completion.js';
import { register as config } from './config.js';
import { register as swap } from './swap.js';
import { register as swaps } from './swaps/command.js';
import { register as sync } from './sync/command.js';
import { register as tokens } from './tokens.js';

export const COMMANDS: Register[] = [swaps, sync, swap, chains, tokens, bridges, auth, config, sandbox, completion];
