/**
 * Settings for the session, as libpq takes them: the URL's `options` parameter, else PGOPTIONS, holding
 * `-c name=value` (or `--name=value`) settings separated by spaces, a space inside a value escaped with `\`
 * (https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNECT-OPTIONS). swapx applies them once the session
 * is its own (with set_config, which every pooler passes), where they win over its own bounds (session.ts):
 * `options=-c lock_timeout=2s` makes a run give up on another session's lock sooner.
 */
import { AddressError, type AddressPart } from '../../sync/errors.js';

/** The words of an options string: split at spaces, `\` keeping the next character as it is. */
function words(text: string): string[] {
  const out: string[] = [];
  let word = '';
  let escaped = false;
  for (const c of text) {
    if (escaped) {
      word += c;
      escaped = false;
    } else if (c === '\\') escaped = true;
    else if (/\s/.test(c)) {
      if (word !== '') out.push(word);
      word = '';
    } else word += c;
  }
  if (word !== '') out.push(word);
  return out;
}

const SETTING_RE = /^([A-Za-z_][A-Za-z0-9_.]*)=(.*)$/s;

/** name → value; `from` says where the text came from, for the one-line refusal (exit 2). */
export function parseServerOptions(text: string, from: AddressPart): Record<string, string> {
  const settings: Record<string, string> = {};
  const list = words(text);
  for (let i = 0; i < list.length; i++) {
    const word = list[i]!;
    let setting: string | undefined;
    if (word === '-c') setting = list[++i];
    else if (word.startsWith('-c')) setting = word.slice(2);
    // --lock-timeout=2s, as postgres takes it: the name's dashes are underscores.
    else if (word.startsWith('--')) setting = word.slice(2).replace(/^[^=]*/, (name) => name.replace(/-/g, '_'));
    const match = setting === undefined ? null : SETTING_RE.exec(setting);
    if (!match) throw new AddressError(from, `: '${text}' is not settings swapx reads: give -c name=value (e.g. -c lock_timeout=2s)`);
    settings[match[1]!] = match[2]!;
  }
  return settings;
}
