// Part 8: the lake (issue 32, item 8). A day of swaps (about 48,000 at 2,000/h, a fixed past clock) synced into a
// fresh prefix of a bucket, `swapx sync --out s3://BUCKET/PREFIX` (Parquet, the lake's default), against its floor
// measured in the same run: the same sync into a local folder (--format parquet) plus one PUT of the day's file by
// curl (--aws-sigv4), timed together. The S3 server is Ceph's RADOS Gateway, started as the tests start it
// (scripts/support/s3-server.ts). Paired runs, the order alternated, the median of the ratios kept; and a replay (the
// same sync run again on the day it holds: no day object sent) beside the folder's replay. Each swapx run is -v, so
// the S3 requests it makes are counted from its lines.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openS3Client } from '../../src/mirror/lake/s3/open.js';
import { type S3Server, s3Env, signedRequest, startS3Server } from '../support/s3-server.js';
import { DAY, MEMORY_SWAPS_PER_HOUR, type BenchContext, type PartOutcome } from './context.js';
import { check, commandExists, runTimed, type Timed } from './proc.js';
import { fixed, grouped, table, verdict } from './report.js';

const ROUNDS = 5;
/** The issue's goal: the lake's first sync of a day at most this times its floor's wall time. */
const MAX_RATIO = 1.3;
const BUCKET = 'bench';
/** The sandbox's clock: the night after the day, as the Postgres part's first load (its updates so far are in). */
const CLOCK = '2026-10-02T02:00:00Z';
const DATE = DAY.from.slice(0, 10);
/** The day object's key under a prefix, as swapx writes it (and as curl sends it: '=' escaped, as in its signature). */
const DAY_KEY = `date=${DATE}/part.parquet`;
const DAY_PATH = `date%3D${DATE}/part.parquet`;

/** The S3 requests of one run, from its -v lines. */
interface S3Requests {
  total: number;
  /** method → count */
  byMethod: Record<string, number>;
  /** of which GETs and PUTs of the day object (a 404 counted too) */
  dayGets: number;
  dayPuts: number;
  /** answers other than 2xx and 404 (radosgw's 412 to a quoted If-Match, retried unquoted) */
  refused: number;
}

interface Run {
  wallMs: number;
  cpuS: number;
  userS: number;
  sysS: number;
  requests: S3Requests;
}

interface Pair {
  round: number;
  /** which side ran first in this round */
  first: 'lake' | 'floor';
  lake: Run;
  /** the floor: the folder sync and the PUT, each, and their sum */
  folder: Run;
  put: Run;
  floor: Run;
  ratio: number;
  cpuRatio: number;
  lakeReplay: Run;
  folderReplay: Run;
  replayRatio: number;
}

interface Median {
  median: number;
  min: number;
  max: number;
}

interface LakeResult {
  swapsPerHour: number;
  clock: string;
  swaps: number;
  dayObjectMB: number;
  rounds: number;
  pairs: Pair[];
  ratio: Median;
  cpuRatio: Median;
  replayRatio: Median;
  target: { max: number; ratio: number; pass: boolean };
}

const S3_LINE = new RegExp(`^(GET|PUT|HEAD|POST|DELETE) /${BUCKET}[/?](\\S*) (\\d{3}) `);

/** The S3 requests a -v run's stderr names (lines "METHOD /bucket/key STATUS Nms"; the API's are /v1/…). */
function countS3Requests(stderr: string, dayPath = DAY_PATH): S3Requests {
  const requests: S3Requests = { total: 0, byMethod: {}, dayGets: 0, dayPuts: 0, refused: 0 };
  for (const line of stderr.split('\n')) {
    const match = S3_LINE.exec(line);
    if (!match) continue;
    const [, method = '', rest = '', status = ''] = match;
    requests.total += 1;
    requests.byMethod[method] = (requests.byMethod[method] ?? 0) + 1;
    if (rest.endsWith(dayPath) && method === 'GET') requests.dayGets += 1;
    if (rest.endsWith(dayPath) && method === 'PUT') requests.dayPuts += 1;
    if (!status.startsWith('2') && status !== '404') requests.refused += 1;
  }
  return requests;
}

const none = (): S3Requests => ({ total: 0, byMethod: {}, dayGets: 0, dayPuts: 0, refused: 0 });

function median(values: readonly number[]): Median {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const med = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median: med, min: sorted[0] ?? Number.NaN, max: sorted[sorted.length - 1] ?? Number.NaN };
}

const runOf = (timed: Timed, requests: S3Requests): Run => ({ wallMs: timed.wallMs, cpuS: timed.cpu, userS: timed.user, sysS: timed.sys, requests });

/** The floor's two steps as one: their times added, the PUT its one request. */
function sum(a: Run, b: Run): Run {
  return {
    wallMs: a.wallMs + b.wallMs,
    cpuS: a.cpuS + b.cpuS,
    userS: a.userS + b.userS,
    sysS: a.sysS + b.sysS,
    requests: { ...b.requests, total: a.requests.total + b.requests.total },
  };
}

const methods = (r: S3Requests) =>
  Object.entries(r.byMethod)
    .map(([method, n]) => `${n} ${method}`)
    .join(', ');

export async function lakePart(ctx: BenchContext): Promise<PartOutcome<LakeResult>> {
  if (!commandExists('curl')) throw new Error('lake: curl is needed for the floor (curl --aws-sigv4, 7.75 or later)');
  ctx.log('lake: starting an S3 server (Ceph radosgw)');
  const { server, stop } = await startS3Server();
  const sandbox = await ctx.startSandbox({ latencyMs: 0, swapsPerHour: MEMORY_SWAPS_PER_HOUR, now: CLOCK });
  try {
    const made = await signedRequest(server, server.owner, 'PUT', `/${BUCKET}`);
    if (made.status !== 200) throw new Error(`lake: could not make the bucket: HTTP ${made.status} ${made.body}`);
    const env = { ...ctx.env(sandbox.url), ...s3Env(server) };
    const stderrFile = path.join(ctx.tmp, 'lake-stderr.txt');
    /** the swaps the last first sync said it wrote (its summary line) */
    let swaps = Number.NaN;
    const sync = async (out: string, extra: readonly string[] = []): Promise<{ timed: Timed; requests: S3Requests }> => {
      const args = [ctx.bin, 'sync', '--out', out, '--since', DAY.from, '--until', DAY.to, ...extra, '-v'];
      const timed = check(await runTimed(ctx.node, args, { env, cwd: ctx.tmp, timeFile: ctx.timeFile, stderrFile }), `swapx sync --out ${out}`);
      const stderr = fs.readFileSync(stderrFile, 'utf8');
      const synced = /Synced ([\d,]+) new/.exec(stderr)?.[1];
      if (synced !== undefined && synced !== '0') swaps = Number(synced.replace(/,/g, ''));
      return { timed, requests: countS3Requests(stderr) };
    };
    const folderOf = (n: number) => path.join(ctx.tmp, `lake-floor-${n}`);
    const put = async (n: number): Promise<Run> => {
      const file = path.join(folderOf(n), DAY_KEY);
      // curl 7.88 signs an upload's payload as empty unless told: UNSIGNED-PAYLOAD, the cheapest PUT it can make.
      const args = [
        '-sS',
        '--fail-with-body',
        '-o',
        '/dev/null',
        '--aws-sigv4',
        'aws:amz:us-east-1:s3',
        '--user',
        `${server.owner.accessKeyId}:${server.owner.secretAccessKey}`,
        '-H',
        'x-amz-content-sha256: UNSIGNED-PAYLOAD',
        '-T',
        file,
        `${server.endpoint}/${BUCKET}/floor-${n}/${DAY_PATH}`,
      ];
      const timed = check(await runTimed('curl', args, { env, cwd: ctx.tmp, timeFile: ctx.timeFile }), 'curl PUT');
      return runOf(timed, { ...none(), total: 1, byMethod: { PUT: 1 }, dayPuts: 1 });
    };

    // Warms the sandbox (its swap cache holds the day) and the page cache: every measured run is served alike.
    ctx.log('lake: warm-up (a folder sync of the day)');
    await sync(path.join(ctx.tmp, 'lake-warm-up'), ['--format', 'parquet', '-q']);

    const pairs: Pair[] = [];
    let fresh = 0;
    /** One round: both sides' first sync of the day, then both replays, the order alternated. */
    const roundOf = async (round: number): Promise<Pair> => {
      // A prefix and a folder of its own: a first sync, whichever attempt this is.
      const id = fresh++;
      const first = round % 2 === 0 ? 'lake' : 'floor';
      const lakeUrl = `s3://${BUCKET}/lake-${id}`;
      const steps = {
        lake: async () => {
          const { timed, requests } = await sync(lakeUrl);
          return runOf(timed, requests);
        },
        floor: async () => {
          const { timed } = await sync(folderOf(id), ['--format', 'parquet']);
          const folder = runOf(timed, none());
          return { folder, put: await put(id) };
        },
        lakeReplay: async () => {
          const { timed, requests } = await sync(lakeUrl);
          if (requests.dayPuts !== 0) throw new Error(`lake: the replay sent the day object ${requests.dayPuts} time(s)`);
          return runOf(timed, requests);
        },
        folderReplay: async () => runOf((await sync(folderOf(id))).timed, none()),
      };
      let lake: Run;
      let floor: { folder: Run; put: Run };
      let lakeReplay: Run;
      let folderReplay: Run;
      if (first === 'lake') {
        lake = await steps.lake();
        floor = await steps.floor();
        lakeReplay = await steps.lakeReplay();
        folderReplay = await steps.folderReplay();
      } else {
        floor = await steps.floor();
        lake = await steps.lake();
        folderReplay = await steps.folderReplay();
        lakeReplay = await steps.lakeReplay();
      }
      await sameBytes(server, lakeUrl, path.join(folderOf(id), DAY_KEY));
      const floorRun = sum(floor.folder, floor.put);
      return {
        round: round + 1,
        first,
        lake,
        ...floor,
        floor: floorRun,
        ratio: lake.wallMs / floorRun.wallMs,
        cpuRatio: lake.cpuS / floorRun.cpuS,
        lakeReplay,
        folderReplay,
        replayRatio: lakeReplay.wallMs / folderReplay.wallMs,
      };
    };
    for (let round = 0; round < ROUNDS; round++) {
      ctx.log(`lake: round ${round + 1} of ${ROUNDS}`);
      let pair: Pair | undefined;
      // A run ended by a signal the bench did not send (other work on a shared machine cleaning up) is run again.
      for (let attempt = 0; !pair; attempt++) {
        try {
          pair = await roundOf(round);
        } catch (error) {
          if (attempt >= 2 || !(error instanceof Error) || !/\(exit SIG[A-Z]+\)/.test(error.message)) throw error;
          ctx.log(`lake: round ${round + 1}: ${error.message.split('\n')[0]}; run again`);
        }
      }
      pairs.push(pair);
      ctx.log(
        `lake: round ${round + 1}: lake ${grouped(pair.lake.wallMs)} ms, floor ${grouped(pair.floor.wallMs)} ms (${fixed(pair.ratio)}×); replay ${grouped(pair.lakeReplay.wallMs)} ms, folder ${grouped(pair.folderReplay.wallMs)} ms`,
      );
    }

    const dayFile = path.join(folderOf(fresh - 1), DAY_KEY);
    const ratio = median(pairs.map((p) => p.ratio));
    const cpuRatio = median(pairs.map((p) => p.cpuRatio));
    const replayRatio = median(pairs.map((p) => p.replayRatio));
    const target = { max: MAX_RATIO, ratio: ratio.median, pass: ratio.median <= MAX_RATIO };
    const med = (f: (p: Pair) => number) => median(pairs.map(f)).median;
    const spread = (m: Median, digits = 2) => `${fixed(m.median, digits)} (${fixed(m.min, digits)}–${fixed(m.max, digits)})`;
    const requestsText = (f: (p: Pair) => S3Requests) => {
      const totals = median(pairs.map((p) => f(p).total));
      const example = f(pairs[0]!);
      if (totals.max === 0) return '-';
      return `${grouped(totals.median)}${totals.min !== totals.max ? ` (${grouped(totals.min)}–${grouped(totals.max)})` : ''}: ${methods(example)}`;
    };
    const text = table(
      `8. The lake: a day of swaps (${grouped(MEMORY_SWAPS_PER_HOUR)}/hour, clock ${CLOCK}) synced into S3 (radosgw), beside a folder sync + one curl PUT`,
      [
        ['run', 'l'],
        ['wall ms', 'r'],
        ['CPU s', 'r'],
        ['user s', 'r'],
        ['sys s', 'r'],
        ['S3 requests (round 1 by method)', 'l'],
        ['day GETs', 'r'],
        ['day PUTs', 'r'],
      ],
      [
        ['lake: first sync (fresh prefix)', (p: Pair) => p.lake],
        ['floor: folder sync + curl PUT', (p: Pair) => p.floor],
        ['  of which the folder sync', (p: Pair) => p.folder],
        ['  of which the curl PUT', (p: Pair) => p.put],
        ['lake: replay (the day held)', (p: Pair) => p.lakeReplay],
        ['folder: replay', (p: Pair) => p.folderReplay],
      ].map(([name, f]) => {
        const of = f as (p: Pair) => Run;
        return [
          name as string,
          grouped(med((p) => of(p).wallMs)),
          fixed(med((p) => of(p).cpuS)),
          fixed(med((p) => of(p).userS)),
          fixed(med((p) => of(p).sysS)),
          requestsText((p) => of(p).requests),
          grouped(med((p) => of(p).requests.dayGets)),
          grouped(med((p) => of(p).requests.dayPuts)),
        ];
      }),
      [
        `Medians of ${ROUNDS} rounds, the order alternated (lake first in odd rounds). Every run is a whole process under GNU time`,
        `(the floor's wall and CPU: its two processes added). swapx runs -v: its S3 requests are counted from its lines.`,
        `${grouped(swaps)} swaps, a day object of ${fixed(fs.statSync(dayFile).size / 1e6, 1)} MB, the same bytes in the lake and the folder (checked each round).`,
        `Per round, lake ÷ floor, wall: ${pairs.map((p) => fixed(p.ratio)).join(', ')}; CPU: ${pairs.map((p) => fixed(p.cpuRatio)).join(', ')}.`,
        `Wall ratio ${spread(ratio)}, CPU ratio ${spread(cpuRatio)}; replay ÷ folder replay, wall ${spread(replayRatio)}.`,
        `Target: the lake's first sync at most ${MAX_RATIO}× the floor's wall time: ${fixed(ratio.median)}× → ${verdict(target.pass)}`,
      ],
    );
    return {
      text,
      result: {
        swapsPerHour: MEMORY_SWAPS_PER_HOUR,
        clock: CLOCK,
        swaps,
        dayObjectMB: fs.statSync(dayFile).size / 1e6,
        rounds: ROUNDS,
        pairs,
        ratio,
        cpuRatio,
        replayRatio,
        target,
      },
    };
  } finally {
    await sandbox.stop();
    stop();
  }
}

/** The lake's day object is the folder's file, byte for byte (its ETag: the MD5 of a single PUT). */
async function sameBytes(server: S3Server, url: string, file: string): Promise<void> {
  const { client } = await openS3Client(url, { env: s3Env(server) });
  try {
    const head = await client.head(DAY_KEY);
    const md5 = `"${crypto.createHash('md5').update(fs.readFileSync(file)).digest('hex')}"`;
    if (head?.etag !== md5) throw new Error(`lake: ${url}/${DAY_KEY} is not the folder's file (ETag ${head?.etag}, MD5 ${md5})`);
  } finally {
    await client.close();
  }
}
