import { spawn, type ChildProcess } from 'node:child_process';
import { eventually } from './test-app';
import { freePort } from './worker-process';

/**
 * A redis-server of the test's own on a free port, keeping nothing on disk (no RDB, no AOF), as a
 * Redis without persistence is: `restart()` kills it with SIGKILL and starts an empty one on the
 * same port. The run's shared Redis is never flushed or restarted (other specs use it).
 */
export class ScratchRedis {
  private process: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<ScratchRedis> {
    const redis = new ScratchRedis(await freePort());
    await redis.launch();
    return redis;
  }

  url(database = 0): string {
    return `redis://127.0.0.1:${this.port}/${database}`;
  }

  /** Kills the server (nothing is saved) and starts an empty one on the same port. */
  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.process = null;
  }

  /** Starts the server and waits for it to say it accepts connections (probing sooner would leave failed clients' timers behind). */
  private async launch(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    this.process = child;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(async () => output.includes('Ready to accept connections'), 15_000, 20);
    child.stdout.removeAllListeners('data').resume();
  }
}
