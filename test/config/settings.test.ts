import { describe, expect, it } from 'vitest';
import { SETTINGS, SETTING_NAMES, allowsPlainHttp, checkSettingValue, isSettingName, resolveSettings, type SettingLayers } from '../../src/config/settings.js';
import { refusal } from '../helpers/refusal.js';

const layers = (change: Partial<SettingLayers> = {}): SettingLayers => ({ flags: {}, env: {}, profile: {}, ...change });

const PLAIN_HTTP = (from: string) =>
  `${from}: refusing plain http to api.example: the API key would travel in clear text; use https://, or a loopback address, or for a test server set SWAPX_ALLOW_HTTP=1`;

describe('allowsPlainHttp', () => {
  it.each(['1', 'true', 'yes', 'TRUE', 'Yes', ' 1 ', '\ttrue\n'])('SWAPX_ALLOW_HTTP=%j allows it', (value) => {
    expect(allowsPlainHttp({ SWAPX_ALLOW_HTTP: value })).toBe(true);
  });
  it.each(['', '0', 'no', 'false', 'yess', '11', 'xtrue', 'true1', 'y'])('SWAPX_ALLOW_HTTP=%j does not', (value) => {
    expect(allowsPlainHttp({ SWAPX_ALLOW_HTTP: value })).toBe(false);
  });
  it('nor does an environment without it, or none', () => {
    expect(allowsPlainHttp({ ALLOW_HTTP: '1' })).toBe(false);
    expect(allowsPlainHttp(undefined)).toBe(false);
  });
});

describe('SETTINGS', () => {
  it('knows five settings, in the order swapx config lists them', () => {
    expect(SETTING_NAMES).toEqual(['base-url', 'format', 'concurrency', 'timeout', 'retries']);
    expect(SETTING_NAMES.map((name) => [SETTINGS[name].key, SETTINGS[name].name])).toEqual([
      ['baseUrl', 'base-url'],
      ['format', 'format'],
      ['concurrency', 'concurrency'],
      ['timeoutMs', 'timeout'],
      ['retries', 'retries'],
    ]);
    expect(SETTINGS['base-url'].env).toBe('SWAPX_BASE_URL');
    expect(SETTINGS.format.defaultText).toBe('table on a terminal, jsonl otherwise');
    expect(SETTINGS.timeout.defaultText).toBe('30s');
  });

  it('isSettingName knows them and nothing else', () => {
    for (const name of SETTING_NAMES) expect(isSettingName(name)).toBe(true);
    for (const name of ['baseUrl', 'timeoutMs', 'toString', 'constructor', '']) expect(isSettingName(name)).toBe(false);
  });

  it('base-url: an http(s) URL, trailing slashes dropped; plain http only to loopback or when allowed', () => {
    const parse = SETTINGS['base-url'].parse;
    expect(parse('https://api.example/v1//', 'x')).toBe('https://api.example/v1');
    expect(parse('https://api.example', 'x')).toBe('https://api.example');
    // Read from a file, a value ends in a newline: the URL parser drops it, and so does the value kept.
    expect(parse(' https://api.example/v1/\n', 'x')).toBe('https://api.example/v1');
    expect(parse('http://127.0.0.1:8787/', 'x')).toBe('http://127.0.0.1:8787');
    expect(refusal(() => parse('http://api.example', 'the flag'))).toBe(PLAIN_HTTP('the flag'));
    expect(refusal(() => parse('http://api.example', 'the flag', { SWAPX_ALLOW_HTTP: '0' }))).toBe(PLAIN_HTTP('the flag'));
    expect(parse('http://api.example/', 'x', { SWAPX_ALLOW_HTTP: '1' })).toBe('http://api.example');
    expect(refusal(() => parse('ftp://x', 'where'))).toBe("where is not an http(s) URL: 'ftp://x'");
  });

  it('format: one of the default formats, not parquet', () => {
    expect(SETTINGS.format.parse(' CSV ', 'x')).toBe('csv');
    expect(refusal(() => SETTINGS.format.parse('parquet', 'where'))).toBe("where: unknown format 'parquet' (use one of table, json, jsonl, csv)");
  });

  it('concurrency: a whole number from 1 to 32', () => {
    expect(SETTINGS.concurrency.parse('1', 'x')).toBe(1);
    expect(SETTINGS.concurrency.parse('32', 'x')).toBe(32);
    expect(refusal(() => SETTINGS.concurrency.parse('33', 'where'))).toBe("where must be a whole number from 1 to 32, not '33'");
  });

  it('timeout: a duration from 1 ms to 1 h', () => {
    const parse = SETTINGS.timeout.parse;
    expect(parse('2m', 'x')).toBe(120_000);
    expect(parse('1h', 'x')).toBe(3_600_000);
    for (const text of ['0s', '61m', '2h', 'soon', '']) {
      expect(refusal(() => parse(text, 'where'))).toBe(`where must be a positive duration up to 1h, such as 30s or 2m, not '${text}'`);
    }
  });

  it('retries: a whole number from 0 to 100', () => {
    expect(SETTINGS.retries.parse('0', 'x')).toBe(0);
    expect(SETTINGS.retries.parse('100', 'x')).toBe(100);
    expect(refusal(() => SETTINGS.retries.parse('101', 'where'))).toBe("where must be a whole number from 0 to 100, not '101'");
  });
});

describe('resolveSettings', () => {
  it('without anything set, every setting is its default', () => {
    expect(resolveSettings(layers())).toEqual({
      baseUrl: { value: 'https://api.pulsy.app', source: 'default' },
      format: { value: undefined, source: 'default' },
      concurrency: { value: 4, source: 'default' },
      timeoutMs: { value: 30_000, source: 'default' },
      retries: { value: 5, source: 'default' },
    });
  });

  it('a flag beats the environment, which beats the profile; the text is kept as written, trimmed', () => {
    const resolved = resolveSettings(
      layers({
        flags: { timeout: ' 2m ', retries: '1' },
        env: { SWAPX_BASE_URL: 'https://env.example/ ' },
        profile: { 'base-url': 'https://profile.example', timeout: '10s', concurrency: ' 8', format: 'csv' },
      }),
    );
    expect(resolved).toEqual({
      baseUrl: { value: 'https://env.example', source: 'env', text: 'https://env.example/' },
      format: { value: 'csv', source: 'profile', text: 'csv' },
      concurrency: { value: 8, source: 'profile', text: '8' },
      timeoutMs: { value: 120_000, source: 'flag', text: '2m' },
      retries: { value: 1, source: 'flag', text: '1' },
    });
    const flagged = resolveSettings(layers({ flags: { 'base-url': 'https://flag.example' }, env: { SWAPX_BASE_URL: 'https://env.example' } }));
    expect(flagged.baseUrl).toEqual({ value: 'https://flag.example', source: 'flag', text: 'https://flag.example' });
  });

  it('an empty environment variable is not set; an empty flag is', () => {
    const resolved = resolveSettings(layers({ env: { SWAPX_BASE_URL: '' }, profile: { 'base-url': 'https://profile.example' } }));
    expect(resolved.baseUrl).toEqual({ value: 'https://profile.example', source: 'profile', text: 'https://profile.example' });
    expect(refusal(() => resolveSettings(layers({ flags: { retries: '' }, profile: { retries: '2' } })))).toBe(
      "--retries must be a whole number from 0 to 100, not ''",
    );
  });

  it('a setting without an environment variable reads none', () => {
    const resolved = resolveSettings(layers({ env: { undefined: 'csv', SWAPX_FORMAT: 'csv', SWAPX_RETRIES: '9' } }));
    expect(resolved.format).toEqual({ value: undefined, source: 'default' });
    expect(resolved.retries).toEqual({ value: 5, source: 'default' });
  });

  it('names the layer of a value it refuses', () => {
    expect(refusal(() => resolveSettings(layers({ flags: { concurrency: '0' } })))).toBe("--concurrency must be a whole number from 1 to 32, not '0'");
    expect(refusal(() => resolveSettings(layers({ env: { SWAPX_BASE_URL: 'http://api.example' } })))).toBe(PLAIN_HTTP('SWAPX_BASE_URL'));
    expect(refusal(() => resolveSettings(layers({ profile: { timeout: 'x' } })))).toBe(
      "the profile setting timeout must be a positive duration up to 1h, such as 30s or 2m, not 'x'",
    );
  });

  it('passes the environment on to each layer’s check (SWAPX_ALLOW_HTTP)', () => {
    const allow = { SWAPX_ALLOW_HTTP: '1' };
    expect(resolveSettings(layers({ flags: { 'base-url': 'http://api.example' }, env: allow })).baseUrl.value).toBe('http://api.example');
    expect(resolveSettings(layers({ env: { ...allow, SWAPX_BASE_URL: 'http://api.example' } })).baseUrl.value).toBe('http://api.example');
    expect(resolveSettings(layers({ profile: { 'base-url': 'http://api.example' }, env: allow })).baseUrl.value).toBe('http://api.example');
  });
});

describe('checkSettingValue', () => {
  it('checks a value under its own name and returns it trimmed', () => {
    expect(checkSettingValue('retries', ' 3 ')).toBe('3');
    expect(checkSettingValue('timeout', '2m\n')).toBe('2m');
    expect(refusal(() => checkSettingValue('retries', '-1'))).toBe("retries must be a whole number from 0 to 100, not '-1'");
    expect(refusal(() => checkSettingValue('base-url', 'http://api.example'))).toBe(PLAIN_HTTP('base-url'));
    expect(checkSettingValue('base-url', 'http://api.example/', { SWAPX_ALLOW_HTTP: 'yes' })).toBe('http://api.example/');
  });
});
