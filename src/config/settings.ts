/**
 * Profile settings: the keys `swapx config` knows, how each is checked, and
 * where each effective value comes from (flag > environment > profile > default).
 */
import { UsageError } from '../api/errors.js';
import { CONCURRENCY, DEFAULT_BASE_URL, RETRIES, TIMEOUT_MS, parseWholeNumber } from '../api/bounds.js';
import { ALLOW_HTTP_ENV, checkBaseUrl } from '../api/base-url.js';
import { parseDuration } from '../util/time.js';
import { DEFAULT_CHOICE, DEFAULT_FORMATS, parseFormat } from '../formats/choose.js';
import type { FormatName } from '../formats/registry.js';

export type Source = 'flag' | 'env' | 'profile' | 'default';

export interface Settings {
  /** API base address */
  baseUrl: string;
  /** default output format; undefined = table on a TTY, jsonl otherwise */
  format: FormatName | undefined;
  /** bulk export workers */
  concurrency: number;
  /** per-request timeout, ms */
  timeoutMs: number;
  /** retries per request */
  retries: number;
}

interface SettingSpec<K extends keyof Settings> {
  key: K;
  /** the name in `swapx config` and the flag name */
  name: string;
  env?: string;
  default: Settings[K];
  /** shown when the default is computed */
  defaultText?: string;
  /** `env`: for opt-ins such as SWAPX_ALLOW_HTTP */
  parse(text: string, from: string, env?: NodeJS.ProcessEnv): Settings[K];
}

/** SWAPX_ALLOW_HTTP=1 (or true/yes): plain http to a test server beyond loopback is accepted. */
export function allowsPlainHttp(env: NodeJS.ProcessEnv | undefined): boolean {
  return /^(1|true|yes)$/i.test(env?.[ALLOW_HTTP_ENV]?.trim() ?? '');
}

export const SETTINGS = {
  'base-url': {
    key: 'baseUrl',
    name: 'base-url',
    env: 'SWAPX_BASE_URL',
    default: DEFAULT_BASE_URL,
    // Every base URL is sent credentials: refused here, before anything is stored or sent.
    parse: (text: string, from: string, env?: NodeJS.ProcessEnv) => {
      checkBaseUrl(text, true, from, allowsPlainHttp(env));
      // Trimmed as the URL parser trims it: a value read from a file ends in a newline, and a sync compares this text with the one it saved.
      return text.trim().replace(/\/+$/, '');
    },
  } satisfies SettingSpec<'baseUrl'>,
  format: {
    key: 'format',
    name: 'format',
    default: undefined,
    defaultText: DEFAULT_CHOICE,
    parse: (text: string, from: string) => parseFormat(text, from, DEFAULT_FORMATS),
  } satisfies SettingSpec<'format'>,
  concurrency: {
    key: 'concurrency',
    name: 'concurrency',
    default: CONCURRENCY.default,
    parse: (text: string, from: string) => parseWholeNumber(text, from, CONCURRENCY),
  } satisfies SettingSpec<'concurrency'>,
  timeout: {
    key: 'timeoutMs',
    name: 'timeout',
    default: TIMEOUT_MS.default,
    defaultText: `${TIMEOUT_MS.default / 1000}s`,
    parse: (text: string, from: string) => {
      const ms = parseDuration(text);
      if (ms === undefined || ms < TIMEOUT_MS.min || ms > TIMEOUT_MS.max)
        throw new UsageError(`${from} must be a positive duration up to 1h, such as 30s or 2m, not '${text}'`);
      return ms;
    },
  } satisfies SettingSpec<'timeoutMs'>,
  retries: {
    key: 'retries',
    name: 'retries',
    default: RETRIES.default,
    parse: (text: string, from: string) => parseWholeNumber(text, from, RETRIES),
  } satisfies SettingSpec<'retries'>,
} as const;

export type SettingName = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}

export interface Resolved<T> {
  value: T;
  source: Source;
  /** the value as the user wrote it (printed back so: `2m` stays `2m`); none for a default */
  text?: string;
}

export type ResolvedSettings = { [K in keyof Settings]: Resolved<Settings[K]> };

/** Raw textual values from each layer, by setting name. */
export interface SettingLayers {
  flags: Partial<Record<SettingName, string>>;
  env: NodeJS.ProcessEnv;
  profile: Partial<Record<string, string>>;
}

export function resolveSettings(layers: SettingLayers): ResolvedSettings {
  const out: Partial<Record<keyof Settings, Resolved<unknown>>> = {};
  for (const name of SETTING_NAMES) {
    const spec = SETTINGS[name] as SettingSpec<keyof Settings>;
    const flag = layers.flags[name];
    const envValue = spec.env ? layers.env[spec.env] : undefined;
    const profileValue = layers.profile[name];
    let resolved: Resolved<unknown>;
    if (flag !== undefined) resolved = { value: spec.parse(flag, `--${name}`, layers.env), source: 'flag', text: flag.trim() };
    else if (envValue !== undefined && envValue !== '') resolved = { value: spec.parse(envValue, spec.env!, layers.env), source: 'env', text: envValue.trim() };
    else if (profileValue !== undefined)
      resolved = { value: spec.parse(profileValue, `the profile setting ${name}`, layers.env), source: 'profile', text: profileValue.trim() };
    else resolved = { value: spec.default, source: 'default' };
    out[spec.key] = resolved;
  }
  return out as ResolvedSettings;
}

/** Checks a value before `swapx config set` stores it; returns it normalised. */
export function checkSettingValue(name: SettingName, text: string, env?: NodeJS.ProcessEnv): string {
  SETTINGS[name].parse(text, name, env);
  return text.trim();
}
