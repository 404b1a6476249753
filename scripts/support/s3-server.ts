/**
 * A real S3 server for a test run (test/helpers/s3-setup.ts), a bench or a chaos run: Ceph's RADOS Gateway over a one-node cluster in a temporary
 * folder (one monitor, one OSD keeping its data in memory, radosgw), as /work/shared/s3/ceph-up.sh starts one, with
 * two users: the owner of the tests' buckets and another (for AccessDenied). It is stopped and its folder removed
 * after the run. A server that cannot start fails the run: an S3 test is never skipped.
 *
 * Two runs on one machine (two vitest runs at once, CI beside a developer) each start a cluster of their own: the
 * monitor's port is not Ceph's 3300 but a free one, as radosgw's is (the OSD takes free ports of its own in
 * 6800-7300), and every file a daemon writes (pid, admin socket, log, data) is in the run's folder. No lock is needed.
 * It starts in the background, as PostgreSQL's does (postgres-cluster.ts): the run's files begin meanwhile, and an
 * S3 test waits for it (test/helpers/s3.ts); a run with no S3 test stops the start rather than wait for it.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { sha256Hex, signRequest } from '../../src/mirror/lake/s3/sigv4.js';
import { freePort } from './free-port.js';
import { runProgram } from './run-program.js';

export interface S3User {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface S3Server {
  /** http://127.0.0.1:PORT: path-style addressing, region us-east-1 */
  endpoint: string;
  /** owns the buckets useBucket makes */
  owner: S3User;
  /** a valid user with no rights on the owner's buckets */
  other: S3User;
  /** how long the start took, by step (ms): what docs/lake.md quotes */
  startMs: Record<string, number>;
}

const OWNER: S3User = { accessKeyId: 'SWAPXTESTKEY', secretAccessKey: 'SWAPXTESTSECRET' };
const OTHER: S3User = { accessKeyId: 'SWAPXOTHERKEY', secretAccessKey: 'SWAPXOTHERSECRET' };

/** A request signed as `user`, straight to the server: for what the client does not do (make a bucket). */
export async function signedRequest(server: S3Server, user: S3User, method: string, path: string, body = ''): Promise<{ status: number; body: string }> {
  const url = new URL(`${server.endpoint}${path}`);
  const headers = signRequest({
    method,
    url,
    headers: {},
    payloadHash: sha256Hex(body),
    region: 'us-east-1',
    service: 's3',
    credentials: user,
    now: Date.now(),
  });
  const response = await request(url, { method: method as 'PUT', headers, body: body || undefined });
  return { status: response.statusCode, body: await response.body.text() };
}

/** The environment that reaches `server` as `user` (IMDS off: a test never looks for a real instance role). */
export function s3Env(server: S3Server, user: S3User = server.owner): Record<string, string> {
  return {
    AWS_ACCESS_KEY_ID: user.accessKeyId,
    AWS_SECRET_ACCESS_KEY: user.secretAccessKey,
    AWS_ENDPOINT_URL: server.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}

/**
 * One monitor, one memstore OSD (2 GiB cap), radosgw; no cephx (a cluster reachable only on loopback, for one run),
 * one placement group per pool: radosgw makes six pools at its first start, and each waits for its groups to peer.
 */
function cephConf(dir: string, monPort: number, rgwPort: number): string {
  const fsid = randomUUID();
  return `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
public addr = 127.0.0.1
cluster addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
auth supported = none
ms mon client mode = crc
ms mon cluster mode = crc
ms mon service mode = crc
ms client mode = crc
ms cluster mode = crc
ms service mode = crc
mon data avail warn = 1
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 1
osd pool default pgp num = 1
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon warn on pool no redundancy = false
paxos propose interval = 0.05
paxos min wait = 0.01
osd crush chooseleaf type = 0
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
log file = ${dir}/log/$name.log
pid file = ${dir}/run/$name.pid
[mon.a]
mon data = ${dir}/mon
[osd.0]
osd data = ${dir}/osd0
osd objectstore = memstore
memstore device bytes = 2147483648
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw dns name = localhost
rgw data = ${dir}/rgw
`;
}

/** The pids of the daemons started in `dir` (their pid files). */
function daemonPids(dir: string): number[] {
  const runDir = path.join(dir, 'run');
  if (!fs.existsSync(runDir)) return [];
  return fs
    .readdirSync(runDir)
    .filter((name) => name.endsWith('.pid'))
    .map((name) => Number(fs.readFileSync(path.join(runDir, name), 'utf8').trim()))
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

/** Kills the cluster's daemons by their pids (their data is in memory: nothing to flush) and removes its folder. */
function stopCluster(dir: string): void {
  for (const pid of daemonPids(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A process killed before its teardown (a runner killed on a timeout) leaves no cluster: as postgres-cluster.ts does. */
function watchOwner(dir: string): void {
  const script =
    'owner=$1; dir=$2; ( while kill -0 "$owner" 2>/dev/null && [ -d "$dir" ]; do sleep 1; done; ' +
    'if [ -d "$dir" ]; then for f in "$dir"/run/*.pid; do [ -f "$f" ] && kill -9 "$(cat "$f")"; done; rm -rf "$dir"; fi ) >/dev/null 2>&1 </dev/null &';
  spawn('sh', ['-c', script, 'swapx-s3-watchdog', String(process.pid), dir], { detached: true, stdio: 'ignore' }).unref();
}

function onPath(bin: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && fs.existsSync(path.join(dir, bin)));
}

/** Resolves once radosgw answers on `port` (its first start makes its pools: most of the start). */
async function waitForGateway(port: number, dir: string, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    signal?.throwIfAborted();
    const answered = await new Promise<boolean>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/', timeout: 1000 }, (res) => {
        res.resume();
        resolve(true);
      });
      req.on('error', () => resolve(false));
      req.on('timeout', () => req.destroy());
    });
    if (answered) return;
    if (Date.now() > deadline) {
      const log = path.join(dir, 'log', 'client.rgw.log');
      const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').slice(-20).join('\n') : '';
      throw new Error(`radosgw did not answer on 127.0.0.1:${port} within 60 s\n${tail}`);
    }
    await sleep(100, undefined, { signal });
  }
}

/** A new cluster in `dir`, started on the given ports; the time of each step in ms. */
async function newCluster(dir: string, monPort: number, rgwPort: number, signal?: AbortSignal): Promise<Record<string, number>> {
  const times: Record<string, number> = {};
  let last = Date.now();
  const step = (name: string) => {
    times[name] = Date.now() - last;
    last = Date.now();
  };
  for (const sub of ['mon', 'osd0', 'run', 'log', 'rgw']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const conf = path.join(dir, 'ceph.conf');
  fs.writeFileSync(conf, cephConf(dir, monPort, rgwPort));
  const fsid = /fsid = (\S+)/.exec(fs.readFileSync(conf, 'utf8'))![1]!;
  const c = ['-c', conf];
  const monmap = path.join(dir, 'monmap');
  await runProgram('monmaptool', ['--create', '--clobber', '--fsid', fsid, '--addv', 'a', `[v2:127.0.0.1:${monPort}]`, monmap], { signal });
  await runProgram('ceph-mon', [...c, '--mkfs', '-i', 'a', '--monmap', monmap], { signal });
  await runProgram('ceph-mon', [...c, '-i', 'a'], { signal });
  step('monitor');
  const osdUuid = randomUUID();
  await runProgram('ceph', [...c, '--connect-timeout', '20', 'osd', 'new', osdUuid], { signal });
  await runProgram('ceph-osd', [...c, '-i', '0', '--mkfs', '--osd-uuid', osdUuid], { signal });
  await runProgram('ceph-osd', [...c, '-i', '0'], { signal });
  step('osd');
  await runProgram('radosgw', [...c, '-n', 'client.rgw'], { signal });
  await waitForGateway(rgwPort, dir, signal);
  step('radosgw');
  const user = (uid: string, keys: S3User) =>
    runProgram(
      'radosgw-admin',
      [...c, 'user', 'create', `--uid=${uid}`, `--display-name=${uid}`, `--access-key=${keys.accessKeyId}`, `--secret-key=${keys.secretAccessKey}`],
      { signal },
    );
  await Promise.all([user('swapx', OWNER), user('other', OTHER)]);
  step('users');
  return times;
}

/**
 * Starts a new cluster; `stop` stops it and removes its folder. Throws when it cannot start, or when `signal`
 * aborts the start, having stopped what it started and removed the folder.
 */
export async function startS3Server(signal?: AbortSignal): Promise<{ server: S3Server; stop: () => void }> {
  const missing = ['monmaptool', 'ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin'].filter((bin) => !onPath(bin));
  if (missing.length > 0) throw new Error(`no Ceph found (${missing.join(', ')}): install Debian's radosgw, ceph-mon and ceph-osd (.ci/run does)`);
  const started = Date.now();
  let lastError: unknown;
  // A port found free may be taken before a daemon binds it (others run tests too): the cluster is made anew on others.
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-s3-'));
    const stop = () => stopCluster(dir);
    try {
      const [monPort, rgwPort] = [await freePort(), await freePort()];
      watchOwner(dir);
      const startMs = await newCluster(dir, monPort, rgwPort, signal);
      startMs.total = Date.now() - started;
      return { server: { endpoint: `http://127.0.0.1:${rgwPort}`, owner: OWNER, other: OTHER, startMs }, stop };
    } catch (error) {
      stop();
      if (signal?.aborted) throw error;
      lastError = error;
    }
  }
  throw new Error(`the S3 test server (Ceph radosgw) did not start: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
}
