/** Terminal safety: API strings must not move the cursor, recolour or retitle the user's terminal. */

// ANSI escape sequences (CSI, OSC, and two-character escapes), then any other C0/C1 control.
const ESCAPE_RE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Bidirectional overrides and isolates reorder what follows them on screen (a message can then read as another).
const BIDI_RE = /[\u202a-\u202e\u2066-\u2069]/g;

export function stripControl(text: string): string {
  return (
    text
      .replace(ESCAPE_RE, '')
      .replace(CONTROL_RE, '')
      .replace(BIDI_RE, '')
      // Unicode's line and paragraph separators break a line as a newline does.
      .replace(/[\n\t\u2028\u2029]/g, ' ')
  );
}

// What terminalSafe removes: the controls above but line breaks and tabs (CSV keeps a newline inside a quoted cell).
const DISPLAY_CONTROL_RE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Machine output shown on a terminal (CSV; JSON escapes controls itself): a server's escape sequences must not
 * retitle or clear it. Written to a file or a pipe, the same output keeps every byte.
 */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_RE, '').replace(DISPLAY_CONTROL_RE, '');
}
