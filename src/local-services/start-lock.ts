import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAlive } from './processes';

const POLL_MS = 100;
const ORPHAN_MS = 10_000;

/**
 * Runs `work` while holding a lock directory in `dataDir`, so that two processes started in one
 * folder (a server and a CLI, say) never initialise, start or migrate the same data at once.
 * mkdir is atomic; a lock left by a process that died is taken over.
 */
export async function withStartLock<T>(dataDir: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  const lock = join(dataDir, '.start.lock');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => ''));
      // A holder that died, or one that died between creating the lock and writing its pid.
      const orphaned =
        holder === 0 &&
        Date.now() -
          (await stat(lock).then(
            (s) => s.mtimeMs,
            () => Date.now(),
          )) >
          ORPHAN_MS;
      if ((holder > 0 && !isAlive(holder)) || orphaned) {
        await rm(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`${lock} is held by process ${holder || '(starting)'}; stop it or remove the folder`, {
          cause: error,
        });
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  try {
    await writeFile(join(lock, 'pid'), String(process.pid));
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
