import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AppConfig } from '../../src/config/environment';
import { connectRedis, type RedisClient } from '../../src/common/redis/redis.module';
import { eventually } from './test-app';

const run = promisify(execFile);

/** A client of the Redis an app under test uses: one Redis or a cluster, as its configuration says. */
export const redisFor = (config: AppConfig): RedisClient => connectRedis(config.redis, {});

/**
 * A Redis Cluster of three masters and no replicas from the machine's redis-server, on loopback, in
 * a directory of its own that `stop` removes; nothing is kept on disk but each node's cluster
 * configuration, so `kill(i)` then `revive(i)` brings node i back, empty, owning its slots again.
 * A node unreachable for NODE_TIMEOUT_MS fails the whole cluster (full coverage is required), as
 * one Redis down would: the outage specs expect the same answers of both.
 *
 * `npm run test:redis-cluster` starts one on ports 7100-7102 and runs the cluster specs on it.
 */
export class RedisCluster {
  private readonly nodes: (ChildProcess | null)[];

  private constructor(
    readonly ports: number[],
    private readonly dir: string,
  ) {
    this.nodes = ports.map(() => null);
  }

  static async start(ports: number[]): Promise<RedisCluster> {
    const cluster = new RedisCluster(ports, await mkdtemp(join(tmpdir(), 'engagement-redis-cluster-')));
    try {
      await Promise.all(ports.map((_, i) => cluster.launch(i)));
      await run('redis-cli', [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ]);
      await cluster.waitUntilServing();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** REDIS_URL of the cluster. */
  url(): string {
    return `redis+cluster://${this.ports.map((port) => `127.0.0.1:${port}`).join(',')}`;
  }

  /** Kills node `index` (SIGKILL: nothing is saved, nothing answers). */
  async kill(index: number): Promise<void> {
    const child = this.nodes[index];
    this.nodes[index] = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Starts node `index` again on its port and waits until the whole cluster serves. */
  async revive(index: number): Promise<void> {
    await this.launch(index);
    await this.waitUntilServing();
  }

  /** Which node serves a key, by index (from the cluster itself). */
  async nodeOf(key: string): Promise<number> {
    const port = String(this.ports[0]);
    const slot = Number((await run('redis-cli', ['-p', port, 'cluster', 'keyslot', key])).stdout.trim());
    // Lines: id address@bus flags master ping pong epoch state, then the slot ranges it serves.
    for (const line of (await run('redis-cli', ['-p', port, 'cluster', 'nodes'])).stdout.trim().split('\n')) {
      const [, address, flags, , , , , , ...ranges] = line.split(' ');
      if (!flags.includes('master')) continue;
      const serves = ranges.some((range) => {
        const [first, last = first] = range.split('-').map(Number);
        return slot >= first && slot <= last;
      });
      if (serves) return this.ports.indexOf(Number(address.split('@')[0].split(':').pop()));
    }
    throw new Error(`No node serves slot ${slot}`);
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((_, i) => this.kill(i)));
    await rm(this.dir, { recursive: true, force: true });
  }

  private async waitUntilServing(): Promise<void> {
    await eventually(
      async () => {
        const states = await Promise.all(
          this.ports.map((port) =>
            run('redis-cli', ['-p', String(port), 'cluster', 'info']).then(
              ({ stdout }) => stdout.includes('cluster_state:ok'),
              () => false,
            ),
          ),
        );
        return states.every(Boolean);
      },
      30_000,
      100,
    );
  }

  private async launch(index: number): Promise<void> {
    const port = this.ports[index];
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        String(NODE_TIMEOUT_MS),
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    this.nodes[index] = child;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(
      async () => {
        // A port already taken (a cluster left running) ends the server at once: say so, not a timeout.
        if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited: ${output.slice(-300)}`);
        return output.includes('Ready to accept connections');
      },
      15_000,
      20,
    );
    child.stdout.removeAllListeners('data').resume();
  }
}

/** How long a node may be unreachable before the others declare it failed (and the cluster down). */
const NODE_TIMEOUT_MS = 1000;
