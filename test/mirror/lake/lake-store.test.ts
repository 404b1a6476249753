/**
 * The lake as a MirrorStore: the contract every store meets (test/helpers/store-contract.ts), on the real S3 server, in
 * Parquet (its default) and JSON Lines. The rows read back with DuckDB from the objects as fetched.
 */
import fs from 'node:fs';
import { afterAll } from 'vitest';
import path from 'node:path';
import { fsReason } from '../../../src/cli/exit-codes.js';
import { LakeBackend } from '../../../src/mirror/lake/backend.js';
import { openS3Client } from '../../../src/mirror/lake/s3/open.js';
import { PartitionedStore } from '../../../src/mirror/partitions/store.js';
import type { FormatName } from '../../../src/formats/registry.js';
import { tempDir } from '../../helpers/cli.js';
import { useBucket } from '../../helpers/s3.js';
import { mirrorRows } from '../../helpers/sync.js';
import { readMirror } from '../../helpers/parquet-mirror.js';
import { describeMirrorStore } from '../../helpers/store-contract.js';

const lake = useBucket();
let n = 0;
/** clients no store of a test took: closed at the end */
const unused: { client: { close(): Promise<void> } }[][] = [];
afterAll(async () => {
  for (const clients of unused) for (const { client } of clients) await client.close();
});

for (const format of ['parquet', 'jsonl'] as const satisfies readonly FormatName[]) {
  describeMirrorStore(`a lake of ${format} partitions`, async () => {
    const url = `s3://${lake.bucket}/contract-${format}-${++n}`;
    // A store closes its client: each store of the test gets one of its own, opened before (opening is a request).
    const clients = await Promise.all([0, 1, 2, 3].map(() => openS3Client(url, { env: lake.env })));
    unused.push(clients);
    const make = () => {
      const opened = clients.shift();
      if (!opened) throw new Error('more stores than clients opened for the test');
      return new PartitionedStore({ backend: new LakeBackend(opened.client), format, now: () => Date.parse('2026-11-02T00:00:00Z'), fsReason });
    };
    return {
      store: make(),
      another: make,
      held: async () => {
        // The partitions as a reader fetches them, kept in their hive layout on disk for DuckDB.
        const { client } = await openS3Client(url, { env: lake.env });
        const dir = tempDir('swapx-lake-held-');
        try {
          for (const { key } of (await client.list('')).objects) {
            if (!key.startsWith('date=')) continue;
            fs.mkdirSync(path.join(dir, path.dirname(key)), { recursive: true });
            fs.writeFileSync(path.join(dir, key), (await client.get(key))!.body);
          }
        } finally {
          await client.close();
        }
        if (format === 'jsonl') return mirrorRows(dir);
        return fs.readdirSync(dir).length > 0 ? readMirror(dir, ['id', 'updatedAt', 'depositUsdAmount']) : [];
      },
    };
  });
}
