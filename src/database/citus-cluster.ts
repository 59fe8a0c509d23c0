import { Client } from 'pg';

/** A Citus worker node, as the coordinator reaches it. */
export interface CitusNode {
  host: string;
  port: number;
}

/** `host:port,host:port` (TEST_CITUS_WORKERS, BENCH_CITUS_WORKERS) as nodes; empty or unset: none. */
export function parseCitusNodes(list: string | undefined): CitusNode[] {
  return (list ?? '')
    .split(',')
    .map((node) => node.trim())
    .filter(Boolean)
    .map((node) => {
      const [host, port] = node.split(':');
      return { host, port: Number(port) };
    });
}

/** The URL of database `name` on the server of `serverUrl` (its credentials), or on `node`'s address. */
function urlOf(serverUrl: string, name: string, node?: CitusNode): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  if (node) {
    url.hostname = node.host;
    url.port = String(node.port);
  }
  return url.toString();
}

async function run(url: string, statements: string[]): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new database `name` on a Citus cluster whose coordinator is `adminUrl`'s server: created on the
 * coordinator and on every worker, the extension in each, the workers registered in its metadata
 * (which Citus keeps per database), then `settings` (statements on the new database). Returns its
 * URL, ready for the migrations and then `db:distribute`. For the e2e suite's Citus mode and the
 * benchmark's; a production cluster is its operators' (docker/compose.yaml's `citus` profile).
 * Names come from the callers' code, never from input.
 */
export async function createCitusDatabase(
  adminUrl: string,
  name: string,
  workers: readonly CitusNode[],
  settings: readonly string[] = [],
): Promise<string> {
  const coordinator = new URL(adminUrl);
  await run(adminUrl, [`CREATE DATABASE ${name}`]);
  for (const worker of workers) {
    const client = new Client({ connectionString: urlOf(adminUrl, 'postgres', worker) });
    await client.connect();
    try {
      // citus.enable_create_database_propagation may have made it already.
      const { rows } = await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
      if (rows.length === 0) await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    await run(urlOf(adminUrl, name, worker), ['CREATE EXTENSION IF NOT EXISTS citus']);
  }
  const url = urlOf(adminUrl, name);
  await run(url, [
    'CREATE EXTENSION IF NOT EXISTS citus',
    `SELECT citus_set_coordinator_host('${coordinator.hostname}', ${Number(coordinator.port || 5432)})`,
    ...workers.map((worker) => `SELECT citus_add_node('${worker.host}', ${worker.port})`),
    ...settings,
  ]);
  return url;
}

/** Drops database `name` on every worker (the coordinator's is the caller's), closing its sessions. */
export async function dropWorkerDatabases(
  adminUrl: string,
  name: string,
  workers: readonly CitusNode[],
): Promise<void> {
  for (const worker of workers)
    await run(urlOf(adminUrl, 'postgres', worker), [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
}
