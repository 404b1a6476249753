/** `swapx config list|get|set|unset`: profile settings, and where each effective value comes from. */
import type { Command } from 'commander';
import { UsageError } from '../api/errors.js';
import type { Register } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { SETTING_NAMES, SETTINGS, checkSettingValue, isSettingName, type SettingName } from '../config/settings.js';
import { renderTable, terminalWidth } from '../output/table.js';
import { formatDuration } from '../util/time.js';

function settingName(key: string): SettingName {
  if (!isSettingName(key)) throw new UsageError(`unknown setting '${key}' (known: ${SETTING_NAMES.join(', ')})`);
  return key;
}

/** A setting as the user wrote it (`2m` stays `2m`), or its default. */
function displayValue(name: SettingName, resolved: { value: unknown; text?: string }): string {
  if (resolved.text !== undefined) return resolved.text;
  if (resolved.value === undefined) return (SETTINGS[name] as { defaultText?: string }).defaultText ?? '';
  if (name === 'timeout' && typeof resolved.value === 'number') return formatDuration(resolved.value);
  return String(resolved.value);
}

export const register: Register = (program: Command, run) => {
  const config = program.command('config').description(`profile settings: ${SETTING_NAMES.join(', ')}`);
  config
    .command('list')
    .description('every setting, its effective value and where it comes from')
    .action(() => run((ctx) => list(ctx)));
  config
    .command('get')
    .argument('<key>', SETTING_NAMES.join(', '))
    .description('print the effective value of a setting')
    .action((key: string) => run((ctx) => get(ctx, key)));
  config
    .command('set')
    .argument('<key>', SETTING_NAMES.join(', '))
    .argument('<value>')
    .description('store a setting in the profile')
    .action((key: string, value: string) => run((ctx) => set(ctx, key, value)));
  config
    .command('unset')
    .argument('<key>', SETTING_NAMES.join(', '))
    .description('remove a setting from the profile')
    .action((key: string) => run((ctx) => unset(ctx, key)));
};

async function list(ctx: Context): Promise<number> {
  const settings = ctx.settings();
  const rows = SETTING_NAMES.map((name) => {
    const resolved = settings[SETTINGS[name].key];
    return { name, value: displayValue(name, resolved), source: resolved.source };
  });
  ctx.io.stdout.write(
    renderTable(
      [
        { header: 'key', value: (r: (typeof rows)[number]) => r.name },
        { header: 'value', value: (r) => r.value },
        { header: 'source', value: (r) => (r.source === 'profile' ? `profile '${ctx.profile}'` : r.source) },
      ],
      rows,
      { header: ctx.out.bold, maxWidth: terminalWidth(ctx.io.stdout as { columns?: number; isTTY?: boolean }, ctx.io.env) },
    ),
  );
  return 0;
}

async function get(ctx: Context, key: string): Promise<number> {
  const name = settingName(key);
  const resolved = ctx.settings()[SETTINGS[name].key];
  ctx.io.stdout.write(`${resolved.value === undefined && resolved.text === undefined ? '' : displayValue(name, resolved)}\n`);
  return 0;
}

async function set(ctx: Context, key: string, value: string): Promise<number> {
  const name = settingName(key);
  ctx.store.setSetting(ctx.profile, name, checkSettingValue(name, value, ctx.io.env));
  ctx.info(`Set ${name} in profile '${ctx.profile}'`);
  return 0;
}

async function unset(ctx: Context, key: string): Promise<number> {
  const name = settingName(key);
  const had = ctx.store.unsetSetting(ctx.profile, name);
  ctx.info(had ? `Unset ${name} in profile '${ctx.profile}'` : `${name} was not set in profile '${ctx.profile}'`);
  return 0;
}
