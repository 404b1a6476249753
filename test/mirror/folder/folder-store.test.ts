/** The folder of partitions as a MirrorStore: the contract every store meets (test/helpers/store-contract.ts), in each format. */
import fs from 'node:fs';
import path from 'node:path';
import { fsReason } from '../../../src/cli/exit-codes.js';
import { FolderStore } from '../../../src/mirror/folder/store.js';
import type { FormatName } from '../../../src/formats/registry.js';
import { tempDir } from '../../helpers/cli.js';
import { mirrorRows } from '../../helpers/sync.js';
import { readMirror } from '../../helpers/parquet-mirror.js';
import { describeMirrorStore } from '../../helpers/store-contract.js';

for (const format of ['jsonl', 'csv', 'parquet'] as const satisfies readonly FormatName[]) {
  describeMirrorStore(`a folder of ${format} partitions`, async () => {
    const dir = path.join(tempDir('swapx-store-'), 'out');
    const make = () => new FolderStore({ dir, format, now: () => Date.parse('2026-11-02T00:00:00Z'), fsReason });
    return {
      store: make(),
      another: make,
      held: async () => {
        if (format !== 'parquet') return mirrorRows(dir);
        const any = fs.existsSync(dir) && fs.readdirSync(dir).some((name) => name.startsWith('date='));
        return any ? readMirror(dir, ['id', 'updatedAt', 'depositUsdAmount']) : [];
      },
    };
  });
}
