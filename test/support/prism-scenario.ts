import {
  loadOperations,
  operationFor,
  serializeQuery,
  type DocumentOperation,
  type QueryValue,
} from './openapi-operations';
import { prismProblemOf, violationsOf, type PrismViolation } from './prism';

/**
 * Sends a scenario's requests through Prism and keeps what an independent validator has to say:
 * every violation Prism reports, every answer whose status was not the one the scenario expects,
 * and which (method, path template, status) of openapi.json got at least one request.
 *
 * Channels: `validating` is a Prism proxy without --errors in front of the main app (every request
 * reaches the app; the `sl-violations` header names each violation); each GET that is valid by the
 * document is sent again through `errors`, a Prism proxy with --errors in front of the same app,
 * which must answer as the app did (a Prism problem+json instead means it found an error-severity
 * violation); `limited` is a Prism proxy without --errors in front of an app with tiny limits (the
 * 429s); `direct` is the main app itself, for the few requests Prism cannot carry (DIRECT_REQUESTS
 * in the spec says which and why).
 */

export type Channel = 'validating' | 'errors' | 'limited' | 'direct';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequest {
  method: Method;
  /** A concrete path, no query. */
  path: string;
  query?: Record<string, QueryValue | undefined>;
  body?: unknown;
  /** Sent as is with content-type application/json (e.g. malformed JSON). */
  rawBody?: string;
  /** The API key; null sends none; undefined sends the scenario's default key. */
  key?: string | null;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** The status(es) the app must answer; 'any' when the scenario decides after looking. */
  expect: number | number[] | 'any';
  /** The request breaks the document on purpose (no key, a bad id or body): Prism's request-side violations are the point, not a finding. */
  invalid?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // The scenario reads answers as the documented JSON shapes; each use names the fields it needs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface Finding {
  channel: Channel;
  method: string;
  url: string;
  template: string;
  status: number;
  location: string;
  severity: string;
  message: string;
}

export interface ScenarioReport {
  requests: Record<Channel, number>;
  requestsThroughPrism: number;
  operations: number;
  operationsExercised: number;
  violations: number;
  distinctViolations: number;
  errorsModeRefusals: number;
  expectedRequestViolations: number;
  responsesWithViolations: number;
  scenarioFailures: string[];
  groupedViolations: { violation: string; count: number; example: string }[];
  groupedErrorsModeRefusals: { refusal: string; count: number; example: string }[];
  uncovered: string[];
}

const statusList = (expect: ApiRequest['expect']) =>
  expect === 'any' ? [] : Array.isArray(expect) ? expect : [expect];

export class PrismScenario {
  readonly operations: DocumentOperation[] = loadOperations();
  /** `GET /api/v1/sessions/{session_id}` → statuses answered (every channel but `errors`, which repeats `validating`). */
  readonly covered = new Map<string, Set<number>>();
  /** The first request of each operation that Prism found valid and the app answered with a 2xx, to derive error requests from. */
  readonly samples = new Map<string, ApiRequest>();
  readonly violations: Finding[] = [];
  readonly errorsModeRefusals: Finding[] = [];
  /** Answers that were not what the scenario expects (a status, or a filter's result), with the request. */
  readonly failures: string[] = [];
  /** Answers that carried at least one violation that counts. */
  flaggedResponses = 0;
  readonly requests: Record<Channel, number> = { validating: 0, errors: 0, limited: 0, direct: 0 };
  expectedRequestViolations = 0;

  constructor(
    private readonly targets: Record<Channel, string>,
    private readonly defaultKey: () => string,
  ) {}

  async send(req: ApiRequest, channel: Channel = 'validating'): Promise<ApiResponse> {
    const operation = operationFor(this.operations, req.method, req.path);
    const target = `${req.path}${serializeQuery(operation, req.query ?? {})}`;
    const where = `[${channel}] ${req.method} ${target}`;
    if (!operation) this.failures.push(`${where}: no operation of openapi.json matches`);

    const headers: Record<string, string> = { 'accept-encoding': 'identity', ...(req.headers ?? {}) };
    // Node's fetch adds `Cache-Control: no-cache` to a conditional request unless one is given, and
    // Express then never answers 304 (its freshness check honours no-cache): say max-age=0 instead.
    if (headers['if-none-match'] !== undefined) headers['cache-control'] ??= 'max-age=0';
    const key = req.key === undefined ? this.defaultKey() : req.key;
    if (key !== null) headers['x-api-key'] = key;
    if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;
    let payload: string | undefined;
    if (req.rawBody !== undefined || req.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = req.rawBody ?? JSON.stringify(req.body);
    }
    this.requests[channel]++;
    const res = await fetch(`${this.targets[channel]}${target}`, {
      method: req.method,
      headers,
      body: payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let body: unknown = text;
    if (/json/.test(res.headers.get('content-type') ?? '') && text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const response: ApiResponse = { status: res.status, headers: res.headers, body };
    const template = operation?.template ?? req.path;
    const record = (list: Finding[], v: PrismViolation) =>
      list.push({
        channel,
        method: req.method,
        url: target,
        template,
        status: res.status,
        location: v.location.join('.'),
        severity: v.severity,
        message: v.message,
      });

    if (channel === 'errors') {
      const problem = prismProblemOf(res.headers, body);
      if (problem) {
        const found = problem.validation?.length
          ? problem.validation
          : [{ location: [], severity: 'Error', message: `${problem.title ?? problem.type}: ${problem.detail ?? ''}` }];
        for (const v of found) record(this.errorsModeRefusals, v);
      }
      return response;
    }

    let requestViolations = 0;
    if (channel === 'validating' || channel === 'limited') {
      const counted = this.violations.length;
      for (const v of violationsOf(res.headers)) {
        if (v.location[0] === 'request') requestViolations++;
        if (req.invalid && v.location[0] === 'request') this.expectedRequestViolations++;
        else record(this.violations, v);
      }
      if (this.violations.length > counted) this.flaggedResponses++;
    }
    if (operation) {
      const statuses = this.covered.get(operation.key) ?? new Set<number>();
      this.covered.set(operation.key, statuses.add(res.status));
    }
    const expected = statusList(req.expect);
    if (expected.length > 0 && !expected.includes(res.status)) {
      this.failures.push(
        `${where}: expected ${expected.join(' or ')}, got ${res.status} ${typeof body === 'string' ? body.slice(0, 300) : JSON.stringify(body).slice(0, 300)}`,
      );
    }
    // A sample must be valid by the document as it stands, or every request derived from it repeats its violation.
    if (
      channel === 'validating' &&
      operation &&
      !req.invalid &&
      requestViolations === 0 &&
      res.status >= 200 &&
      res.status < 300 &&
      !this.samples.has(operation.key)
    ) {
      this.samples.set(operation.key, req);
    }
    // A GET is safe to repeat: the --errors proxy must let the same answer through.
    if (channel === 'validating' && req.method === 'GET' && !req.invalid && res.status !== 429) {
      const again = await this.send({ ...req, expect: 'any' }, 'errors');
      if (again.status !== res.status && !prismProblemOf(again.headers, again.body)) {
        this.failures.push(
          `[errors] ${req.method} ${target}: answered ${again.status} where the proxy without --errors answered ${res.status}`,
        );
      }
    }
    return response;
  }

  /** Sends `req` and fails the scenario at once unless the status is one expected (for steps later steps depend on). */
  async must(req: ApiRequest, channel: Channel = 'validating'): Promise<ApiResponse> {
    const res = await this.send(req, channel);
    const expected = statusList(req.expect);
    if (expected.length > 0 && !expected.includes(res.status)) {
      throw new Error(
        `${req.method} ${req.path}: expected ${expected.join(' or ')}, got ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`,
      );
    }
    return res;
  }

  report(uncovered: string[]): ScenarioReport {
    const group = (list: Finding[]) => {
      const groups = new Map<string, { count: number; example: string }>();
      for (const f of list) {
        // Array indexes apart: `items.0.error` and `items.1.error` are one finding.
        const name = `${f.method} ${f.template} ${f.status}: ${f.location} [${f.severity}] ${f.message}`.replace(
          /(?<=[A-Za-z_])\.\d+(?=\.|\s|$)/g,
          '.[i]',
        );
        const entry = groups.get(name) ?? { count: 0, example: `[${f.channel}] ${f.method} ${f.url}` };
        entry.count++;
        groups.set(name, entry);
      }
      return [...groups]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, { count, example }]) => ({ name, count, example }));
    };
    const violations = group(this.violations);
    return {
      requests: { ...this.requests },
      requestsThroughPrism: this.requests.validating + this.requests.errors + this.requests.limited,
      operations: this.operations.length,
      operationsExercised: this.operations.filter((op) => this.covered.has(op.key)).length,
      violations: this.violations.length,
      distinctViolations: violations.length,
      errorsModeRefusals: this.errorsModeRefusals.length,
      expectedRequestViolations: this.expectedRequestViolations,
      responsesWithViolations: this.flaggedResponses,
      scenarioFailures: [...this.failures],
      groupedViolations: violations.map(({ name, count, example }) => ({ violation: name, count, example })),
      groupedErrorsModeRefusals: group(this.errorsModeRefusals).map(({ name, count, example }) => ({
        refusal: name,
        count,
        example,
      })),
      uncovered,
    };
  }
}
