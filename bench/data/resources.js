// What the build used: the generator's peak RSS, the memory settings of its two PostgreSQL sessions and,
// when the server runs on this machine, their backends' peak RSS (for sizing a larger build).
'use strict';
const fs = require('node:fs');

const MIB = 2 ** 20;

/**
 * A backend's peak resident set (VmHWM, shared buffers it touched included) in MiB, or null when its /proc is not ours to read.
 * @param {number} pid
 */
function backendPeakMiB(pid) {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** @param {...import('pg').Client} connections */
async function buildResources(...connections) {
  /** @type {{ workMem: string, maintenanceWorkMem: string, hashMemMultiplier: number, peakRssMiB: number | null }[]} */
  const backends = [];
  for (const db of connections) {
    const {
      rows: [s],
    } = await db.query(
      `SELECT pg_backend_pid() AS pid, current_setting('work_mem') AS work_mem, current_setting('maintenance_work_mem') AS maintenance_work_mem,
              current_setting('hash_mem_multiplier') AS hash_mem_multiplier`,
    );
    backends.push({
      workMem: s.work_mem,
      maintenanceWorkMem: s.maintenance_work_mem,
      hashMemMultiplier: Number(s.hash_mem_multiplier),
      peakRssMiB: backendPeakMiB(s.pid),
    });
  }
  return { generatorPeakRssMiB: Math.round((process.resourceUsage().maxRSS * 1024) / MIB), backends };
}

module.exports = { buildResources };
