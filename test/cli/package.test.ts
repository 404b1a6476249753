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
  // Issue "the people, round two", 6: the README says `npm install` in a clone warns about no install script. npm 11
  // warns about each installed package whose install script allowScripts does not decide: there is none.
  it('decides in allowScripts every dependency with an install script (esbuild: denied, the build needs no script)', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([where, entry]) => where !== '' && entry.hasInstallScript)
      .map(([where]) => where.split('node_modules/').at(-1)!);
    expect(withScripts).toEqual(['esbuild']);
    expect(withScripts.filter((name) => !Object.hasOwn(pkg.allowScripts, name))).toEqual([]);
    expect(pkg.allowScripts).toEqual({ esbuild: false });
  });
});
