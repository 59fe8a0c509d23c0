// Logging and phase timing (stderr).
'use strict';

const started = Date.now();
/** @type {{ phase: string, seconds: number }[]} */
const timings = [];
/** @param {...unknown} args */
const log = (...args) => console.error(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s]`, ...args);

/**
 * Runs `fn` as a named phase: logged when it starts and ends, its seconds kept in `timings`.
 * @template T
 * @param {string} name
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function phase(name, fn) {
  const t0 = Date.now();
  log(`▶ ${name}`);
  const result = await fn();
  const seconds = (Date.now() - t0) / 1000;
  timings.push({ phase: name, seconds });
  log(`✔ ${name} (${seconds.toFixed(1)} s)`);
  return result;
}

module.exports = { started, timings, log, phase };
