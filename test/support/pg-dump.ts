import { spawn } from 'node:child_process';

/**
 * Which of `needles` a `pg_dump --data-only` of the database at `url` contains, case-insensitively,
 * read as it streams (a needle split between two chunks is still found).
 */
export function dumpContaining(url: string, needles: readonly string[]): Promise<string[]> {
  const wanted = needles.map((needle) => needle.toLowerCase());
  const overlap = Math.max(1, ...wanted.map((needle) => needle.length)) - 1;
  return new Promise((resolve, reject) => {
    const dump = spawn('pg_dump', ['--data-only', url], { stdio: ['ignore', 'pipe', 'inherit'] });
    const found = new Set<number>();
    let tail = '';
    dump.stdout.setEncoding('utf8');
    dump.stdout.on('data', (chunk: string) => {
      const text = tail + chunk.toLowerCase();
      wanted.forEach((needle, i) => {
        if (text.includes(needle)) found.add(i);
      });
      tail = text.slice(-overlap);
    });
    dump.on('error', reject);
    dump.on('close', (code) =>
      code === 0 ? resolve(needles.filter((_, i) => found.has(i))) : reject(new Error(`pg_dump exited with ${code}`)),
    );
  });
}
