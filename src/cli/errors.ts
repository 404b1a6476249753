/** Errors only the shell raises: the library never does, so they are not part of its exports. */
import { SwapxError } from '../api/errors.js';

/** A lookup that found nothing: no swap matches, no such chain (exit 4). */
export class NoMatchError extends SwapxError {}
