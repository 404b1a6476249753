import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { linkAbort } from '../../src/api/abort.js';

describe('linkAbort', () => {
  it('follows no signal: never aborted', () => {
    const linked = linkAbort([undefined, undefined]);
    expect(linked.controller.signal.aborted).toBe(false);
    linked.dispose();
  });

  it('is aborted at once when a signal it follows already is', () => {
    const running = new AbortController();
    expect(linkAbort([running.signal, AbortSignal.abort()]).controller.signal.aborted).toBe(true);
    expect(getEventListeners(running.signal, 'abort')).toHaveLength(1);
  });

  it('aborts when any signal it follows aborts', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkAbort([a.signal, undefined, b.signal]);
    expect(linked.controller.signal.aborted).toBe(false);
    b.abort();
    expect(linked.controller.signal.aborted).toBe(true);
  });

  it('puts one listener on a signal however many follow it, and none is left once it aborted', () => {
    const run = new AbortController();
    const links = Array.from({ length: 20 }, () => linkAbort([run.signal]));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    run.abort();
    expect(links.every((linked) => linked.controller.signal.aborted)).toBe(true);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('a disposed link no longer follows; the others still do', () => {
    const run = new AbortController();
    const gone = linkAbort([run.signal]);
    const kept = linkAbort([run.signal]);
    gone.dispose();
    run.abort();
    expect(gone.controller.signal.aborted).toBe(false);
    expect(kept.controller.signal.aborted).toBe(true);
  });

  it('dispose stops following every signal', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkAbort([a.signal, b.signal]);
    linked.dispose();
    a.abort();
    b.abort();
    expect(linked.controller.signal.aborted).toBe(false);
  });

  it('a link disposed while the signal aborts does not stop the others', () => {
    const run = new AbortController();
    const first = linkAbort([run.signal]);
    const second = linkAbort([run.signal]);
    first.controller.signal.addEventListener('abort', () => second.dispose());
    run.abort();
    expect(first.controller.signal.aborted).toBe(true);
    expect(second.controller.signal.aborted).toBe(true);
  });
});
