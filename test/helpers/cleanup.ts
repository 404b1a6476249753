/** After each test file: the temp dirs it made are removed (a run made some 300; they used to pile up in /tmp). */
import { afterAll } from 'vitest';
import { removeTempDirs } from './cli.js';

afterAll(removeTempDirs);
