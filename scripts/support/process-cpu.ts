/** A running process's CPU time, for the bench's figures and the tests that pace a kill by it. */
import fs from 'node:fs';

// sysconf(_SC_CLK_TCK) is 100 on every Linux that node supports.
const CLOCK_TICKS = 100;

/** CPU seconds (user + sys) used so far by a running process, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / CLOCK_TICKS;
}
