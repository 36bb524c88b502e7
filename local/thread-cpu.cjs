// CPU time of the calling thread (ms), from Linux's /proc/thread-self/stat (utime + stime, clock
// ticks of 10 ms): unlike event-loop utilisation it does not count time the thread waited for a core
// on a busy machine. Node 20 has no per-thread CPU clock (process.threadCpuUsage() came in 23.9).
// undefined elsewhere than Linux. CommonJS, so the plain-JavaScript workers and the TypeScript host share it.
const { readFileSync } = require('node:fs');

const TICK_MS = 10;

exports.threadCpuMs = function threadCpuMs() {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) start at state, field 3; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
};
