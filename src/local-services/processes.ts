import { spawn, type SpawnOptions } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** Whether a process with this id exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process id written on the first line of a pid file, or null. */
export async function livePidFrom(file: string): Promise<number | null> {
  const pid = Number((await readFile(file, 'utf8').catch(() => '')).split('\n')[0]);
  return pid > 0 && isAlive(pid) ? pid : null;
}

/** Runs a command to completion; rejects with its output when it exits non-zero. */
export function run(command: string, args: string[], options: SpawnOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args[0] ?? ''} exited with ${code}: ${output.trim()}`)),
    );
  });
}

/** Polls `check` until it is true or the deadline passes. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
