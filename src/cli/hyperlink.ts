/**
 * Terminal hyperlinks (OSC 8). Shown as `ls --hyperlink=auto` and GCC's `-fdiagnostics-urls=auto` show them: when
 * the stream is a terminal that is not dumb (a terminal that does not know OSC 8 ignores it and shows the text).
 * FORCE_HYPERLINK, the convention of supports-hyperlinks, overrides: 0 turns them off, any other value on.
 * NO_COLOR and --no-color leave them alone: a link adds no colour.
 */
import type { OutStream } from '../output/stream.js';

export function hyperlinksEnabled(stream: OutStream, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_HYPERLINK?.trim();
  if (force) return force !== '0' && force.toLowerCase() !== 'false';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/**
 * `text` opening `url`. `id` makes the pieces of a link broken over lines one link (hovered and underlined together).
 * `url` must be printable ASCII (an `http(s)` URL's href is): a control character would end the sequence early.
 */
export function hyperlink(url: string, text: string, id?: string): string {
  return `\u001b]8;${id ? `id=${id}` : ''};${url}\u001b\\${text}\u001b]8;;\u001b\\`;
}
