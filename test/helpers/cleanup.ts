/**
 * After each test file: the temp dirs it made are removed (a run made some 300; they used to pile up in /tmp), and
 * the DuckDB database the file read with is closed, so that the next file in this worker starts with an empty one.
 */
import { afterAll } from 'vitest';
import { closeDuckDb } from '../../scripts/support/duckdb.js';
import { removeTempDirs } from './cli.js';

afterAll(removeTempDirs);
afterAll(closeDuckDb);
