/**
 * Issue 11.20: npm 11 warns (allowScripts) on a global install of a package with install-time scripts; swapx has
 * none. The Postgres driver's patch is applied by the build (prepack's), and the package bundles the patched copy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('package.json', () => {
  it('has no script npm runs on install; prepack builds from an empty dist/, so bench and chaos builds are not shipped', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      bundleDependencies: string[];
    };
    expect(Object.keys(pkg.scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([]);
    expect(pkg.scripts.prepack).toBe('node -e "fs.rmSync(\'dist\', { recursive: true, force: true })" && npm run build');
    expect(pkg.scripts.build).toMatch(/^node scripts\/patch-postgres\.js && /);
    expect(pkg.bundleDependencies).toEqual(['postgres']);
  });
});
