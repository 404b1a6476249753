import fs from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { CONFIG_FILE_NAME, ConfigStore, configDir } from '../../src/config/store.js';
import { tempDir } from '../helpers/cli.js';

/** A store in a folder of its own (not made yet), and the warnings it gives. */
function newStore(contents?: string, mode = 0o600) {
  const dir = path.join(tempDir('swapx-store-'), 'conf');
  if (contents !== undefined) {
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'config.json'), contents, { mode });
    fs.chmodSync(path.join(dir, 'config.json'), mode);
  }
  const warnings: string[] = [];
  const store = new ConfigStore({ SWAPX_CONFIG_DIR: dir }, (message) => warnings.push(message));
  return { store, dir, file: path.join(dir, 'config.json'), warnings };
}

const text = (file: string) => fs.readFileSync(file, 'utf8');
const json = (value: unknown) => `${JSON.stringify(value, null, '\t')}\n`;

describe('configDir', () => {
  it('is SWAPX_CONFIG_DIR, else the OS config folder named swapx', () => {
    expect(configDir({ SWAPX_CONFIG_DIR: '/somewhere/conf' })).toBe('/somewhere/conf');
    const fallback = envPaths('swapx', { suffix: '' }).config;
    expect(path.basename(fallback)).toBe('swapx');
    expect(configDir({})).toBe(fallback);
    expect(configDir({ SWAPX_CONFIG_DIR: '' })).toBe(fallback);
  });
});

describe('ConfigStore', () => {
  it('names its folder and file config.json in it', () => {
    const { store, dir, file } = newStore();
    expect(CONFIG_FILE_NAME).toBe('config');
    expect(store.dir).toBe(dir);
    expect(store.file).toBe(file);
  });

  it('reads as empty, and creates nothing, while there is no file', () => {
    const { store, dir } = newStore();
    expect(store.profile('default')).toEqual({});
    expect(store.profileNames()).toEqual([]);
    expect(store.storedCredentials('default')).toBeUndefined();
    expect(store.settings('default')).toEqual({});
    expect(store.setting('default', 'format')).toBeUndefined();
    expect(store.forgetCredentials('default')).toBe(false);
    expect(store.unsetSetting('default', 'format')).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('saves credentials in a 0700 folder, in a 0600 file, one document for every profile', () => {
    const { store, dir, file, warnings } = newStore();
    store.saveCredentials('default', { kind: 'basic', clientId: 'acme', apiKey: 'k1' });
    store.saveCredentials('work', { kind: 'bearer', token: 't1' });
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(text(file)).toBe(json({ profiles: { default: { clientId: 'acme', apiKey: 'k1' }, work: { token: 't1' } } }));
    expect(store.profileNames()).toEqual(['default', 'work']);
    expect(store.storedCredentials('default')).toEqual({ kind: 'basic', clientId: 'acme', apiKey: 'k1' });
    expect(store.storedCredentials('work')).toEqual({ kind: 'bearer', token: 't1' });
    expect(store.storedCredentials('other')).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('new credentials replace the old of either kind, and keep the settings', () => {
    const { store, file } = newStore(json({ profiles: { p: { token: 't0', settings: { format: 'csv' } } } }));
    store.saveCredentials('p', { kind: 'basic', clientId: 'c', apiKey: 'k' });
    expect(text(file)).toBe(json({ profiles: { p: { settings: { format: 'csv' }, clientId: 'c', apiKey: 'k' } } }));
    store.saveCredentials('p', { kind: 'bearer', token: 't2' });
    expect(text(file)).toBe(json({ profiles: { p: { settings: { format: 'csv' }, token: 't2' } } }));
    expect(store.storedCredentials('p')).toEqual({ kind: 'bearer', token: 't2' });
  });

  it('reads Basic credentials only when both halves are there, else a token', () => {
    const { store } = newStore(
      json({
        profiles: {
          both: { clientId: 'c', apiKey: 'k', token: 't' },
          idOnly: { clientId: 'c' },
          keyOnly: { apiKey: 'k' },
          idAndToken: { clientId: 'c', token: 't' },
          emptyToken: { token: '' },
          emptyKey: { clientId: 'c', apiKey: '' },
        },
      }),
    );
    expect(store.storedCredentials('both')).toEqual({ kind: 'basic', clientId: 'c', apiKey: 'k' });
    expect(store.storedCredentials('idOnly')).toBeUndefined();
    expect(store.storedCredentials('keyOnly')).toBeUndefined();
    expect(store.storedCredentials('idAndToken')).toEqual({ kind: 'bearer', token: 't' });
    expect(store.storedCredentials('emptyToken')).toBeUndefined();
    expect(store.storedCredentials('emptyKey')).toBeUndefined();
  });

  it('forgets credentials, keeping the settings; a profile left empty is removed', () => {
    const { store, file } = newStore(
      json({ profiles: { a: { clientId: 'c', apiKey: 'k', settings: { retries: '2' } }, b: { token: 't' }, c: { settings: { retries: '1' } } } }),
    );
    expect(store.forgetCredentials('a')).toBe(true);
    expect(text(file)).toBe(json({ profiles: { a: { settings: { retries: '2' } }, b: { token: 't' }, c: { settings: { retries: '1' } } } }));
    expect(store.forgetCredentials('b')).toBe(true);
    expect(text(file)).toBe(json({ profiles: { a: { settings: { retries: '2' } }, c: { settings: { retries: '1' } } } }));
    const before = text(file);
    expect(store.forgetCredentials('c')).toBe(false);
    expect(store.forgetCredentials('b')).toBe(false);
    expect(text(file)).toBe(before);
  });

  it('sets, reads and unsets settings; a profile with no settings left loses the settings object, then itself', () => {
    const { store, file } = newStore();
    store.setSetting('p', 'format', 'csv');
    store.setSetting('p', 'retries', '3');
    store.setSetting('p', 'format', 'json');
    expect(text(file)).toBe(json({ profiles: { p: { settings: { format: 'json', retries: '3' } } } }));
    expect(store.setting('p', 'format')).toBe('json');
    expect(store.settings('p')).toEqual({ format: 'json', retries: '3' });
    expect(store.unsetSetting('p', 'timeout')).toBe(false);
    expect(store.unsetSetting('p', 'format')).toBe(true);
    expect(text(file)).toBe(json({ profiles: { p: { settings: { retries: '3' } } } }));
    store.saveCredentials('p', { kind: 'bearer', token: 't' });
    expect(store.unsetSetting('p', 'retries')).toBe(true);
    expect(text(file)).toBe(json({ profiles: { p: { token: 't' } } }));
    store.setSetting('q', 'retries', '1');
    expect(store.unsetSetting('q', 'retries')).toBe(true);
    expect(text(file)).toBe(json({ profiles: { p: { token: 't' } } }));
    expect(store.profileNames()).toEqual(['p']);
  });

  it('an empty settings object found in the file is dropped at the next write of the profile', () => {
    const { store, file } = newStore(json({ profiles: { p: { token: 't', settings: {} }, q: { settings: {} } } }));
    store.saveCredentials('p', { kind: 'bearer', token: 'u' });
    expect(text(file)).toBe(json({ profiles: { p: { token: 'u' }, q: { settings: {} } } }));
    expect(store.forgetCredentials('p')).toBe(true);
    expect(text(file)).toBe(json({ profiles: { q: { settings: {} } } }));
  });

  it('refuses a setting that is not text, naming it', () => {
    const { store, file } = newStore(json({ profiles: { p: { settings: { format: 'csv', retries: 3 } }, q: { settings: { timeout: null } } } }));
    const message = `the setting retries of profile 'p' in ${file} is 3, not text: set it with 'swapx config set retries <value>'`;
    expect(() => store.settings('p')).toThrow(UsageError);
    expect(() => store.settings('p')).toThrow(message);
    expect(() => store.setting('p', 'format')).toThrow(message);
    expect(() => store.unsetSetting('q', 'timeout')).toThrow(`the setting timeout of profile 'q' in ${file} is null, not text`);
  });

  it('refuses a file that is not JSON without quoting it', () => {
    const { store, file } = newStore('{"profiles": {"p": {"apiKey": "s3cret"');
    const error = (() => {
      try {
        store.profile('p');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect(error?.message).toBe(`${file} is not valid JSON; fix it, or delete it and run 'swapx auth login' again`);
  });

  it.each(['{"profiles": null}', '{"profiles": []}', '{"profiles": "x"}', '{"profiles": 0}'])('refuses %s as not a swapx config file', (contents) => {
    const { store, file } = newStore(contents);
    const message = `${file} is not a swapx config file (no profiles object); fix it, or delete it and run 'swapx auth login' again`;
    expect(() => store.profileNames()).toThrow(UsageError);
    // Refused again on every later call, never taken for a store (a write would replace the file).
    expect(() => store.profileNames()).toThrow(message);
    expect(() => store.profile('p')).toThrow(message);
    expect(() => store.setSetting('p', 'retries', '1')).toThrow(message);
    expect(text(file)).toBe(contents);
  });

  it('a file without profiles reads as none', () => {
    const { store } = newStore('{}');
    expect(store.profileNames()).toEqual([]);
  });

  it('passes on an error that is not the JSON', () => {
    const { store, file } = newStore();
    fs.mkdirSync(file, { recursive: true });
    expect(() => store.profile('p')).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });

  it('tightens a file others may read to 0600, with a warning', () => {
    for (const mode of [0o644, 0o640, 0o604, 0o601, 0o610]) {
      const { store, file, warnings } = newStore(json({ profiles: { p: { token: 't' } } }), mode);
      expect(store.profileNames()).toEqual(['p']);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(warnings).toEqual([`${file} was readable by other users; its mode is now 0600`]);
    }
  });

  it('leaves a file only its owner may use as it is', () => {
    for (const mode of [0o600, 0o700, 0o400]) {
      const { store, file, warnings } = newStore(json({ profiles: {} }), mode);
      expect(store.profileNames()).toEqual([]);
      expect(fs.statSync(file).mode & 0o777).toBe(mode);
      expect(warnings).toEqual([]);
    }
  });

  it('warns to nobody by default', () => {
    const { dir, file } = newStore(json({ profiles: { p: {} } }), 0o644);
    expect(new ConfigStore({ SWAPX_CONFIG_DIR: dir }).profileNames()).toEqual(['p']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reads the file once: later changes to it are not seen, and it is checked once', () => {
    const { store, file, warnings } = newStore(json({ profiles: { p: { token: 't' } } }), 0o644);
    expect(store.profile('p')).toEqual({ token: 't' });
    fs.writeFileSync(file, json({ profiles: { q: { token: 'u' } } }));
    fs.chmodSync(file, 0o644);
    expect(store.profile('p')).toEqual({ token: 't' });
    fs.rmSync(file);
    expect(store.profile('p')).toEqual({ token: 't' });
    expect(store.profileNames()).toEqual(['p']);
    expect(warnings).toHaveLength(1);
  });
});
