/** Waiting in tests for what another process or server does: the one polling loop. */

/**
 * Polls `check` every few ms until it gives a value other than undefined or false, and returns it; throws
 * "timed out waiting for WHAT" after `timeoutMs`. The check may be async (a query to a server).
 */
export async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, what = 'a condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
}
