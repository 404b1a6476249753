/**
 * Frees a buffer's memory now rather than at V8's next full collection. A dense export's large buffers (a window's
 * response body and its encoded text, ~1.5 MB each) live long enough to reach the old generation, which V8 collects
 * as its heap grows, not as memory outside the heap piles up: left alone, 10–20 MB of dead windows linger at times.
 */

/**
 * Frees `bytes` at once when it is all of its memory (never a part of a larger buffer, such as Node's pool of small
 * ones); every view of that memory reads as empty afterwards, so only for bytes nobody else holds. Returns whether
 * it freed them.
 */
export function freeNow(bytes: Buffer): boolean {
  const whole = bytes.buffer;
  // All of it: a view of all its memory starts at 0, so its length alone tells.
  if (!(whole instanceof ArrayBuffer) || bytes.byteLength !== whole.byteLength || bytes.byteLength === 0) return false;
  try {
    // The transfer moves the memory to a new ArrayBuffer that nothing reaches, young, which the next minor
    // collection (within milliseconds) frees; the old one is left empty.
    structuredClone(whole, { transfer: [whole] });
  } catch {
    // Not transferable: the collector frees it, as it would have.
  }
  // Memory Node keeps for itself (marked untransferable) is copied, not moved, and stays as it was.
  return whole.byteLength === 0;
}
