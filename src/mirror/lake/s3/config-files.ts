/**
 * The AWS CLI's shared files, read as the CLI and the SDKs read them: `~/.aws/credentials` (sections `[NAME]`)
 * and `~/.aws/config` (`[default]`, `[profile NAME]`, `[services NAME]`), moved by AWS_SHARED_CREDENTIALS_FILE and
 * AWS_CONFIG_FILE; the profile is AWS_PROFILE, else `default`. A profile's values from the credentials file win over
 * the config file's. Indented lines under `key =` are its sub-settings (`s3 =` / `  endpoint_url = …`), kept as
 * `key.sub`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { S3CredentialsError } from './errors.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface SharedConfig {
  profileName: string;
  /** whether AWS_PROFILE named it (a named profile that is nowhere is an error; a missing `default` is not) */
  explicit: boolean;
  /** the profile's settings, both files merged; undefined when neither file has it */
  profile: Record<string, string> | undefined;
  /** where each file is (they need not exist) */
  credentialsFile: string;
  configFile: string;
  /** a `[services NAME]` section of the config file */
  services(name: string): Record<string, string> | undefined;
}

type Sections = Map<string, Record<string, string>>;

export function parseIni(text: string): Sections {
  const sections: Sections = new Map();
  let current: Record<string, string> | undefined;
  let parent: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*([#;].*)?$/.test(raw)) continue;
    const header = /^\s*\[\s*([^\]]+?)\s*\]\s*$/.exec(raw);
    if (header) {
      current = sections.get(header[1]!) ?? {};
      sections.set(header[1]!, current);
      parent = undefined;
      continue;
    }
    const pair = /^(\s*)([^=\s][^=]*?)\s*=\s*(.*?)\s*$/.exec(raw);
    if (!pair || !current) continue;
    const [, indent, key, value] = pair as unknown as [string, string, string, string];
    const name = key.toLowerCase();
    if (indent !== '' && parent !== undefined) current[`${parent}.${name}`] = value;
    else {
      current[name] = value;
      parent = value === '' ? name : undefined;
    }
  }
  return sections;
}

function readSections(file: string): Sections {
  try {
    return parseIni(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw new S3CredentialsError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** `~/…` in a file setting, as the AWS CLI expands it. */
function expandHome(file: string, home: string): string {
  return file === '~' || file.startsWith('~/') ? path.join(home, file.slice(1)) : file;
}

export function loadSharedConfig(env: Env, home: string): SharedConfig {
  const credentialsFile = expandHome(env.AWS_SHARED_CREDENTIALS_FILE || path.join(home, '.aws', 'credentials'), home);
  const configFile = expandHome(env.AWS_CONFIG_FILE || path.join(home, '.aws', 'config'), home);
  const profileName = env.AWS_PROFILE || 'default';
  const credentials = readSections(credentialsFile);
  const config = readSections(configFile);
  // The config file names a profile `[profile NAME]`; `default` may be `[default]` or `[profile default]`.
  const fromConfig = config.get(`profile ${profileName}`) ?? (profileName === 'default' ? config.get('default') : undefined);
  const fromCredentials = credentials.get(profileName);
  const profile = fromConfig || fromCredentials ? { ...fromConfig, ...fromCredentials } : undefined;
  return {
    profileName,
    explicit: Boolean(env.AWS_PROFILE),
    profile,
    credentialsFile,
    configFile,
    services: (name) => config.get(`services ${name}`),
  };
}

/** A file the credentials name, `~` expanded. */
export function settingPath(file: string, home: string): string {
  return expandHome(file, home);
}
