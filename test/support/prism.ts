import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { OPENAPI_PATH } from './openapi-operations';
import { eventually } from './test-app';

/**
 * @stoplight/prism-cli as a validating proxy in front of a test app: `prism proxy openapi.json
 * <upstream>`, an independent reading of the document (its own OpenAPI parser, JSON Schema
 * validator and parameter deserializers).
 *
 * What Prism reports (prism-http-server 5.16, server.js and prism-core factory.js):
 * - without --errors, every request is forwarded and the answer comes back as the upstream sent it,
 *   with an `sl-violations` header listing each request and response violation
 *   (`{location: ['request'|'response', ...], severity, code, message}`), warnings included (an
 *   undeclared status is a warning) and a route the document lacks as "Selected route not found";
 * - with --errors, a request that violates the document (security included: no key) is not
 *   forwarded: Prism answers it with its own 401/422; a response with an error-severity violation
 *   is replaced by a 500 problem+json of type https://stoplight.io/prism/errors#VIOLATIONS whose
 *   `validation` lists them. The `sl-violations` header is set in both cases.
 */

const PRISM_CLI = join(__dirname, '..', '..', 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const ROOT = join(__dirname, '..', '..');

export interface PrismViolation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export interface PrismProxy {
  url: string;
  errors: boolean;
  /** Prism's own log (the last 20k characters), for a failure message. */
  log(): string;
  stop(): Promise<void>;
}

/** A port free right now on 127.0.0.1 (Prism takes its port as a flag, so 0 cannot be passed through). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `prism proxy openapi.json <upstream>` and resolves once it answers HTTP (polled, with a deadline). */
export async function startPrism(
  upstream: string,
  options: { errors: boolean; timeoutMs?: number },
): Promise<PrismProxy> {
  const port = await freePort();
  const args = [
    PRISM_CLI,
    'proxy',
    OPENAPI_PATH,
    upstream,
    '--port',
    String(port),
    '-h',
    '127.0.0.1',
    '--verboseLevel',
    'warn',
    ...(options.errors ? ['--errors'] : []),
  ];
  // The same Node as the tests (the project's), not whichever `node` is first on the PATH.
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => (running = false));

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!running) return;
    // A validating proxy holds no state worth a graceful stop.
    child.kill('SIGKILL');
    await exited;
  };

  // Any HTTP answer means Prism routes requests (healthz needs no key).
  const listening = async () => {
    if (!running) throw new Error(`prism exited before listening:\n${output}`);
    return fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    );
  };
  try {
    await eventually(listening, options.timeoutMs ?? 60_000, 100);
  } catch (error) {
    const exitedEarly = !running;
    await stop();
    throw exitedEarly ? error : new Error(`prism did not listen on ${url} within the deadline:\n${output}`);
  }
  return { url, errors: options.errors, log: () => output, stop };
}

/** The `sl-violations` header of a Prism answer; a value Prism cut short (over ~8 KiB) is one violation quoting it. */
export function violationsOf(headers: Headers): PrismViolation[] {
  const raw = headers.get('sl-violations');
  if (!raw) return [];
  try {
    return JSON.parse(raw) as PrismViolation[];
  } catch {
    return [
      { location: ['response'], severity: 'Error', message: `unparsable sl-violations header: ${raw.slice(0, 500)}` },
    ];
  }
}

/** Prism's own problem+json (an --errors refusal or a proxy failure), as opposed to the upstream's answer. */
export interface PrismProblem {
  type: string;
  title?: string;
  detail?: string;
  validation?: PrismViolation[];
}

export function prismProblemOf(headers: Headers, body: unknown): PrismProblem | undefined {
  if (!String(headers.get('content-type')).startsWith('application/problem+json')) return undefined;
  const problem = body as Partial<PrismProblem> | null;
  return typeof problem?.type === 'string' && problem.type.startsWith('https://stoplight.io/prism/errors#')
    ? (problem as PrismProblem)
    : undefined;
}
