/**
 * The credential store and profile settings. One file holds every profile;
 * it is created 0600 in a 0700 folder because it holds secrets.
 */
import fs from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import type { Credentials } from '../api/credentials.js';
import { UsageError } from '../api/errors.js';
import { JsonFile } from './json-file.js';
import { makeDirSync } from '../fs/make-dir.js';

export interface StoredProfile {
  clientId?: string;
  apiKey?: string;
  token?: string;
  settings?: Record<string, string>;
}

interface StoreShape {
  profiles: Record<string, StoredProfile>;
}

export const CONFIG_FILE_NAME = 'config';

/** Where profiles live: SWAPX_CONFIG_DIR, else the OS config folder. */
export function configDir(env: NodeJS.ProcessEnv): string {
  return env.SWAPX_CONFIG_DIR || envPaths('swapx', { suffix: '' }).config;
}

export class ConfigStore {
  private conf: JsonFile<StoreShape> | undefined;
  readonly dir: string;
  readonly file: string;

  constructor(
    env: NodeJS.ProcessEnv,
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.dir = configDir(env);
    this.file = path.join(this.dir, `${CONFIG_FILE_NAME}.json`);
  }

  /** Opened on first use, so commands that never touch it never create it. */
  private open(): JsonFile<StoreShape> {
    if (this.conf) return this.conf;
    makeDirSync(this.dir, 0o700);
    this.tighten(this.file, 0o600);
    let conf: JsonFile<StoreShape>;
    try {
      conf = new JsonFile<StoreShape>(this.file, { profiles: {} }, 0o600);
    } catch (error) {
      // The parser's message quotes the file, secrets included: name the file, never its text.
      if (error instanceof SyntaxError) throw new UsageError(`${this.file} is not valid JSON; fix it, or delete it and run 'swapx auth login' again`);
      throw error;
    }
    const profiles = conf.get('profiles');
    if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles)) {
      throw new UsageError(`${this.file} is not a swapx config file (no profiles object); fix it, or delete it and run 'swapx auth login' again`);
    }
    // Kept only once checked: a later call on a refused file is refused again, not read as a store.
    this.conf = conf;
    return conf;
  }

  /** A store file readable by group or others is fixed to `mode`, with a warning. */
  private tighten(file: string, mode: number): void {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return;
    }
    if ((stat.mode & 0o077) !== 0) {
      fs.chmodSync(file, mode);
      this.warn(`${file} was readable by other users; its mode is now ${mode.toString(8).padStart(4, '0')}`);
    }
  }

  /** A profile's stored values; empty when there is no store yet. */
  profile(name: string): StoredProfile {
    if (!this.conf && !fs.existsSync(this.file)) return {};
    return this.open().get('profiles')[name] ?? {};
  }

  profileNames(): string[] {
    if (!this.conf && !fs.existsSync(this.file)) return [];
    return Object.keys(this.open().get('profiles'));
  }

  private update(name: string, change: (profile: StoredProfile) => StoredProfile): void {
    const conf = this.open();
    const profiles = { ...conf.get('profiles') };
    const next = change({ ...(profiles[name] ?? {}) });
    if (next.settings && Object.keys(next.settings).length === 0) delete next.settings;
    // A profile left with nothing in it is gone, not listed as an empty shell.
    if (Object.keys(next).length === 0) delete profiles[name];
    else profiles[name] = next;
    conf.set('profiles', profiles);
  }

  /** `settings`: stored with the credentials in the same write (auth login --base-url). */
  saveCredentials(name: string, credentials: Credentials, settings: Record<string, string> = {}): void {
    this.update(name, (profile) => {
      delete profile.clientId;
      delete profile.apiKey;
      delete profile.token;
      if (Object.keys(settings).length > 0) profile.settings = { ...profile.settings, ...settings };
      return credentials.kind === 'basic'
        ? { ...profile, clientId: credentials.clientId, apiKey: credentials.apiKey }
        : { ...profile, token: credentials.token };
    });
  }

  /** Returns whether the profile had credentials. */
  forgetCredentials(name: string): boolean {
    const had = this.storedCredentials(name) !== undefined;
    if (had) {
      this.update(name, (profile) => {
        delete profile.clientId;
        delete profile.apiKey;
        delete profile.token;
        return profile;
      });
    }
    return had;
  }

  storedCredentials(name: string): Credentials | undefined {
    const profile = this.profile(name);
    if (profile.clientId && profile.apiKey) return { kind: 'basic', clientId: profile.clientId, apiKey: profile.apiKey };
    if (profile.token) return { kind: 'bearer', token: profile.token };
    return undefined;
  }

  setting(name: string, key: string): string | undefined {
    return this.settings(name)[key];
  }

  /** A profile's settings; a usage error naming one that is not text (swapx writes every setting as text; a hand edit may not). */
  settings(name: string): Record<string, string> {
    const settings = this.profile(name).settings ?? {};
    for (const [key, value] of Object.entries(settings as Record<string, unknown>)) {
      if (typeof value !== 'string') {
        throw new UsageError(
          `the setting ${key} of profile '${name}' in ${this.file} is ${JSON.stringify(value)}, not text: set it with 'swapx config set ${key} <value>'`,
        );
      }
    }
    return settings;
  }

  setSetting(name: string, key: string, value: string): void {
    this.update(name, (profile) => ({ ...profile, settings: { ...profile.settings, [key]: value } }));
  }

  /** Returns whether the key was set. */
  unsetSetting(name: string, key: string): boolean {
    if (this.setting(name, key) === undefined) return false;
    this.update(name, (profile) => {
      const settings = { ...profile.settings };
      delete settings[key];
      return { ...profile, settings };
    });
    return true;
  }
}
