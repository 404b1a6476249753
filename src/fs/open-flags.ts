import { constants } from 'node:fs';

/**
 * Open flags for a file swapx makes beside the user's (FILE.partial and its state): a symbolic link planted at that
 * name fails the open (ELOOP) instead of being followed, or an export into a shared directory would write its rows
 * into whatever file the link names. (Windows has no such flag: 0.)
 */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
/** Created or emptied, written from the start. */
export const OPEN_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NO_FOLLOW;
/** An existing file, read and written (a resume). */
export const OPEN_EXISTING = constants.O_RDWR | NO_FOLLOW;
