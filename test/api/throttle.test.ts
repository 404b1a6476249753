import { beforeEach, describe, expect, it } from 'vitest';
import { Throttle as RealThrottle } from '../../src/api/throttle.js';

/** The sleeps the throttle asks for, each moving the test's clock on by its length (no real waiting). */
const sleeps: { ms: number; signal: AbortSignal | undefined }[] = [];
let clock = 0;
/** Called as each sleep ends. */
let onWake: (() => void) | undefined;
const sleep = async (ms: number, _value: undefined, options: { signal?: AbortSignal }) => {
  sleeps.push({ ms, signal: options.signal });
  clock += ms;
  onWake?.();
};
const now = () => clock;
/** The throttle on the test's clock and sleeps. */
class Throttle extends RealThrottle {
  constructor(rate: number | undefined, clockNow?: () => number) {
    super(rate, clockNow, sleep);
  }
}

beforeEach(() => {
  sleeps.length = 0;
  clock = 1000;
  onWake = undefined;
});

describe('Throttle', () => {
  it('without a rate, lets every request through at once', async () => {
    for (const rate of [undefined, 0, -5]) {
      const throttle = new Throttle(rate, now);
      for (let i = 0; i < 5; i++) await throttle.acquire();
    }
    expect(sleeps).toEqual([]);
  });

  it('without a rate, a wall clock stepped back holds nothing', async () => {
    for (const rate of [undefined, 0, -5]) {
      const throttle = new Throttle(rate, now);
      clock = 1000;
      await throttle.acquire();
      clock = 400;
      await throttle.acquire();
    }
    expect(sleeps).toEqual([]);
  });

  it('spaces requests 1000 / rate ms apart, the first at once', async () => {
    const throttle = new Throttle(4, now);
    const signal = new AbortController().signal;
    clock = 1000;
    await throttle.acquire(signal);
    expect(sleeps).toEqual([]);
    // Three more asked at the same moment: each waits a slot further out (250 ms apart).
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      clock = 1000;
      await throttle.acquire(signal);
      waits.push(sleeps.at(-1)!.ms);
    }
    expect(waits).toEqual([250, 500, 750]);
    expect(sleeps.every((sleep) => sleep.signal === signal)).toBe(true);
  });

  it('a request after the next slot goes at once, and sets the slot after it', async () => {
    const throttle = new Throttle(2, now);
    await throttle.acquire();
    clock = 1500;
    await throttle.acquire();
    clock = 1600;
    await throttle.acquire();
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([400]);
    clock = 5000;
    await throttle.acquire();
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([400]);
  });

  it('holds requests until a pause is over, then lets them through', async () => {
    const throttle = new Throttle(undefined, now);
    const signal = new AbortController().signal;
    throttle.pauseFor(300);
    await throttle.acquire(signal);
    expect(sleeps).toEqual([{ ms: 300, signal }]);
    expect(clock).toBe(1300);
    await throttle.acquire(signal);
    expect(sleeps).toHaveLength(1);
  });

  it('a pause ending now holds nothing', async () => {
    const throttle = new Throttle(undefined, now);
    throttle.pauseFor(0);
    await throttle.acquire();
    expect(sleeps).toEqual([]);
  });

  it('keeps the longer of two pauses', async () => {
    const throttle = new Throttle(undefined, now);
    throttle.pauseFor(500);
    throttle.pauseFor(100);
    await throttle.acquire();
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([500]);
    throttle.pauseFor(100);
    clock += 50;
    throttle.pauseFor(20);
    await throttle.acquire();
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([500, 50]);
  });

  it('a pause extended while it is waited out is waited out too', async () => {
    const throttle = new Throttle(undefined, now);
    onWake = () => {
      onWake = undefined;
      throttle.pauseFor(100);
    };
    throttle.pauseFor(200);
    await throttle.acquire();
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([200, 100]);
  });

  it('after a pause, spaces requests from the end of the pause', async () => {
    const throttle = new Throttle(10, now);
    throttle.pauseFor(1000);
    await throttle.acquire();
    await throttle.acquire();
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([1000, 100]);
  });

  it('uses the wall clock by default', async () => {
    const throttle = new Throttle(1);
    const before = Date.now();
    await throttle.acquire();
    await throttle.acquire();
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]!.ms).toBeGreaterThan(1000 - (Date.now() - before) - 1);
    expect(sleeps[0]!.ms).toBeLessThanOrEqual(1000);
  });
});
