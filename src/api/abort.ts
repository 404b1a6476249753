/**
 * One AbortController that follows other signals, with listeners removed
 * when done. Cheaper than AbortSignal.any on Node 20, where it costs about a
 * millisecond of CPU a request at export rates.
 */
export interface LinkedAbort {
  controller: AbortController;
  dispose(): void;
}

export function linkAbort(signals: readonly (AbortSignal | undefined)[]): LinkedAbort {
  const controller = new AbortController();
  const followed = signals.filter((s): s is AbortSignal => s !== undefined);
  const onAbort = () => controller.abort();
  for (const signal of followed) {
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  return {
    controller,
    dispose: () => {
      for (const signal of followed) signal.removeEventListener('abort', onAbort);
    },
  };
}
