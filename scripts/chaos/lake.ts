// The chaos cases of the lake (`swapx sync --out s3://…`), on a real S3 server (Ceph's RADOS Gateway, started as
// the tests start it): a sync through faults at rate 0.3, killed with SIGKILL at random moments and run again as
// cron would, and two syncs started at once (one refused). Each case downloads the lake's day objects and compares
// them as a Parquet folder mirror is compared (references.ts): row for row with the API, and object for object with
// the partitions of a clean folder sync, byte for byte. The lease must be given back, nothing else left.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultKind, RunningSandbox } from '../../src/sandbox/index.js';
import { openS3Client } from '../../src/mirror/lake/s3/open.js';
import { type S3Server, s3Env, signedRequest, startS3Server } from '../support/s3-server.js';
import { faultsText } from './faults.js';
import type { Chaos, SyncQuery } from './chaos.js';
import type { CaseRow } from './report.js';
import { failureLine, runThrough, spawnSwapx } from './spawn.js';

const ALL_KINDS: FaultKind[] = ['429', '500', '503', 'reset', 'truncated', 'slow'];
/** What a lake holds besides its day objects once a run has ended well. */
const BOOKKEEPING = /^_swapx\/(sync\.json|sync\.lock|last-run\.json|ids\/\d{4}-\d{2}-\d{2}\.ids)$/;
const DAY_OBJECT = /^date=\d{4}-\d{2}-\d{2}\/part\.parquet$/;

export class LakeChaos {
  #cases = 0;

  private constructor(
    private readonly chaos: Chaos,
    private readonly server: S3Server,
    private readonly stop: () => void,
    private readonly bucket: string,
  ) {}

  /** A new S3 server and a bucket for the cases. */
  static async start(chaos: Chaos): Promise<LakeChaos> {
    const { server, stop } = await startS3Server();
    const bucket = `chaos-${process.pid}-${Date.now()}`;
    const made = await signedRequest(server, server.owner, 'PUT', `/${bucket}`);
    if (made.status !== 200) {
      stop();
      throw new Error(`could not make the chaos bucket: HTTP ${made.status} ${made.body}`);
    }
    return new LakeChaos(chaos, server, stop, bucket);
  }

  close(): void {
    this.stop();
  }

  #env(sandbox: RunningSandbox): NodeJS.ProcessEnv {
    return { ...this.chaos.env(sandbox), ...s3Env(this.server) };
  }

  #case(name: string, body: (row: CaseRow, url: string) => Promise<void>): Promise<CaseRow> {
    return this.chaos.runCase(name, (row) => body(row, `s3://${this.bucket}/case-${++this.#cases}`));
  }

  /** The day objects against a clean folder sync's partitions and the API's rows; the lease given back, nothing else left. */
  async #compare(row: CaseRow, query: SyncQuery, url: string, name: string): Promise<void> {
    const dir = path.join(this.chaos.caseDir(name), 'out');
    const { client } = await openS3Client(url, { env: s3Env(this.server) });
    try {
      for (const { key } of (await client.list('')).objects) {
        if (!DAY_OBJECT.test(key)) {
          if (!BOOKKEEPING.test(key)) row.problems.push(`left behind: ${key}`);
          continue;
        }
        const object = await client.get(key);
        if (!object) throw new Error(`${key} was listed, then not found`);
        fs.mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
        fs.writeFileSync(path.join(dir, key), object.body);
      }
      const lease = await client.get('_swapx/sync.lock');
      if (lease && (JSON.parse(lease.body.toString('utf8')) as { endsAt: number }).endsAt !== 0) row.problems.push('the lease was not given back');
    } finally {
      await client.close();
    }
    await (await this.chaos.reference(query)).compare(row, dir);
  }

  /** A first sync through faults at `rate` of every kind. */
  faultRate(name: string, query: SyncQuery, rate: number): Promise<CaseRow> {
    return this.#case(name, async (row, url) => {
      const sandbox = await this.chaos.sandbox({ faultRate: rate, faultKinds: ALL_KINDS, slowMs: 5000 });
      try {
        await runThrough(row, this.chaos.syncArgs(query, url, ['--timeout', '1s', '--retries', '15']), this.#env(sandbox));
        row.faults = `${faultsText(sandbox.stats().faults)} of ${sandbox.stats().requests} requests`;
      } finally {
        await this.chaos.stopSandbox(sandbox);
      }
      await this.#compare(row, query, url, name);
    });
  }

  /** A first sync killed `afterMs` after the API's first answer, then run again (its lease taken over at once). */
  kill(name: string, query: SyncQuery, afterMs: number): Promise<CaseRow> {
    return this.#case(name, async (row, url) => {
      const { sandbox, firstAnswer } = await this.chaos.watchedSandbox({ latencyMs: 25 });
      try {
        const args = this.chaos.syncArgs(query, url);
        const { child, done } = spawnSwapx(args, this.#env(sandbox));
        const finished = await Promise.race([firstAnswer.then(() => sleep(afterMs)).then(() => false), done.then(() => true)]);
        child.kill('SIGKILL');
        const killed = await done;
        row.faults = finished || killed.signal !== 'SIGKILL' ? `none: done before +${afterMs} ms` : `SIGKILL at +${afterMs} ms`;
        const again = await runThrough(row, args, this.#env(sandbox));
        if (killed.signal === 'SIGKILL' && again.code === 0 && !/took over a lease left by pid \d+/.test(again.stderr) && !finished)
          row.notes.push('the kill fell before the lease was taken');
      } finally {
        await this.chaos.stopSandbox(sandbox);
      }
      await this.#compare(row, query, url, name);
    });
  }

  /** Two syncs started at once: one writes, the other is refused naming it (exit 1); then the cron line. */
  twoAtOnce(name: string, query: SyncQuery): Promise<CaseRow> {
    return this.#case(name, async (row, url) => {
      const sandbox = await this.chaos.sandbox({ latencyMs: 25 });
      try {
        const args = this.chaos.syncArgs(query, url);
        const runs = await Promise.all([spawnSwapx(args, this.#env(sandbox)).done, spawnSwapx(args, this.#env(sandbox)).done]);
        const codes = runs.map((run) => run.code).sort();
        row.faults = 'two syncs started at once';
        const refused = runs.find((run) => run.code === 1);
        if (codes.join() !== '0,1') row.problems.push(`expected exits 0 and 1, got ${codes.join(' and ')}`);
        else if (!/^swapx: error: another swapx sync \(pid \d+ on \S+, since \S+\) holds the lease of /.test(failureLine(refused!.stderr)))
          row.problems.push(`the refused run said: ${failureLine(refused!.stderr)}`);
        else row.notes.push(`refused: ${failureLine(refused!.stderr)}`);
        await runThrough(row, args, this.#env(sandbox));
      } finally {
        await this.chaos.stopSandbox(sandbox);
      }
      await this.#compare(row, query, url, name);
    });
  }
}
