import fc, { type Arbitrary } from 'fast-check';
import { unstorableTextReason } from '../../src/common/validation/unstorable-text';

/**
 * Generators of hostile HTTP input for the fuzz suite (test/fuzz.e2e-spec.ts): strings PostgreSQL
 * cannot store, huge strings, every script and direction, LIKE wildcards, SQL fragments, UUIDs in
 * every form, deep nesting, values of the wrong type, bytes that are not UTF-8 and wrong content
 * types. Shaped values follow the route's OpenAPI schema (field names, enums, formats) with hostile
 * leaves mixed in, so most requests get past the body's shape and reach field validation and the
 * service.
 */

/** Real values of the tenant under test, so some requests name things that exist. */
export interface Fixtures {
  ids: string[];
  slugs: string[];
  domains: string[];
  cardFiles: string[];
  words: string[];
}

export interface OpenApiSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  allOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minLength?: number;
  minItems?: number;
  required?: string[];
}

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; schema?: OpenApiSchema }[];
        requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

export const SAMPLE_UUID = '0190b3b0-7a1c-7cc0-8000-00000000000a';

/** Strings chosen for what they break: storage, encodings, LIKE, SQL, parsers, numbers, dates. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(3),
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '\ud83d',
  '😀',
  '👩‍👩‍👧‍👦',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  'עברית',
  'e\u0301\u0301\u0301\u0301',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗͈',
  '\ufeffBOM',
  '\u2028\u2029',
  '\t\n\r\u000b\u000c',
  '\u0001\u001f\u007f',
  '\uffff\ufffe',
  '%',
  '_',
  '\\',
  '%_\\',
  '\\%',
  'a%b_c\\d',
  "'",
  '"',
  "' OR '1'='1",
  "'; DROP TABLE custom_links; --",
  '1; SELECT pg_sleep(10)',
  '$1',
  '$$',
  "E'\\x00'",
  '/* comment */',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '${jndi:ldap://x}',
  '../../etc/passwd',
  '..%2F..%2F',
  'null',
  'true',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '-0',
  '9'.repeat(40),
  '0x10',
  '2026-02-30T10:00:00Z',
  '2026-11-22T10:00:00+99:99',
  '0000-01-01',
  '275760-09-13T00:00:00Z',
  'yesterday',
  'high,,,medium',
  ',',
  'a@b',
  '@',
  'x'.repeat(255),
  'x'.repeat(256),
  'é'.repeat(256),
  `urn:uuid:${SAMPLE_UUID}`,
  `{${SAMPLE_UUID}}`,
  SAMPLE_UUID.replaceAll('-', ''),
  SAMPLE_UUID.toUpperCase(),
  `urn:uuid:${SAMPLE_UUID.replaceAll('-', '')}`,
  `${SAMPLE_UUID}\u0000`,
  SAMPLE_UUID.slice(0, -1),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'javascript:alert(1)',
  'http://127.0.0.1:6379/',
  'file:///etc/passwd',
  'publish-to-production',
];

/** Percent-encodings that do not decode (or decode to what no resource is named). */
export const RAW_PATH_SEGMENTS: readonly string[] = [
  '%FF',
  '%E0%A4%A',
  '%',
  '%ED%A0%80',
  '%00',
  '%C0%AF',
  '%2e%2e',
  '..',
  '.',
  '%2F',
  '%25',
  '%F4%90%80%80',
  'a%00b',
];

const text = (): Arbitrary<string> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    // Lone surrogates and U+0000 spliced into ordinary text.
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.string({ maxLength: 10 }),
          fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'),
          fc.string({ maxLength: 10 }),
        )
        .map((parts) => parts.join('')),
    },
    // Huge strings, over every field bound (bodies past the size limits are requestBody's `oversize`).
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('x', 'é', '😀', '%', '\u0000'), fc.integer({ min: 256, max: 20_000 }))
        .map(([unit, n]) => unit.repeat(n)),
    },
  );

export const hostileString = text;

/** Odd but valid text (scripts, directions, marks, quotes, LIKE wildcards, SQL): it must be stored and read back as sent. */
const storableOddText = (maxLength: number): Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      ...HOSTILE_STRINGS.filter(
        (value) => value.length > 0 && value.length <= maxLength && unstorableTextReason(value) === null,
      ),
    ),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(maxLength, 30) }),
  );

/** A UUID in every form: canonical, the other forms pydantic accepts, and near misses. */
export function uuidForms(fixtures: Fixtures, onlyValid = false): Arbitrary<string> {
  const base = fc.oneof(fc.constantFrom(...(fixtures.ids.length > 0 ? fixtures.ids : [SAMPLE_UUID])), fc.uuid());
  return fc.oneof(
    { weight: 5, arbitrary: base },
    {
      weight: 3,
      arbitrary: fc.tuple(base, fc.nat(onlyValid ? 3 : 9)).map(([id, form]) => {
        const simple = id.replaceAll('-', '');
        return [
          `urn:uuid:${id}`,
          `{${id}}`,
          simple,
          id.toUpperCase(),
          `urn:uuid:${simple}`,
          `{${simple}}`,
          `${id}\u0000`,
          id.slice(1),
          ` ${id}`,
          `${id}-`,
        ][form];
      }),
    },
  );
}

const jsonScalar = (): Arbitrary<unknown> =>
  fc.oneof(
    text(),
    fc.integer(),
    fc.constantFrom(0, -1, 1.5, -0, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, Number.MAX_VALUE, Number.MIN_VALUE),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );

/** Nested arrays or objects `depth` levels deep around `leaf`. */
export function nest(depth: number, leaf: unknown, kind: 'array' | 'object'): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** Any JSON value, often of the wrong type for where it is sent. */
export function hostileJson(): Arbitrary<unknown> {
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, jsonScalar(), tie('array'), tie('object')),
    array: fc.array(tie('tree'), { maxLength: 4 }),
    object: fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'a\u0000', '\ud800', '')),
      tie('tree'),
      { maxKeys: 4 },
    ),
  }));
  return fc.oneof(
    { weight: 5, arbitrary: tree },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: 3000 }), jsonScalar(), fc.constantFrom('array' as const, 'object' as const))
        .map(([d, leaf, kind]) => nest(d, leaf, kind)),
    },
  );
}

function resolve(schema: OpenApiSchema | undefined, doc: OpenApiDocument): OpenApiSchema {
  let current = schema ?? {};
  for (let guard = 0; guard < 10; guard++) {
    if (current.$ref) current = doc.components?.schemas?.[current.$ref.split('/').pop() as string] ?? {};
    else if (current.allOf?.length)
      current = {
        ...current,
        ...current.allOf.map((s) => resolve(s, doc)).reduce((a, b) => ({ ...a, ...b }), {}),
        allOf: undefined,
      };
    else if (current.oneOf?.length || current.anyOf?.length) current = (current.oneOf ?? current.anyOf ?? [])[0];
    else break;
  }
  return current;
}

/** OpenAPI 3.1: null is a type, of the schema or of one of its alternatives. */
function admitsNull(schema: OpenApiSchema | undefined): boolean {
  return Boolean(
    schema &&
    ((Array.isArray(schema.type) && schema.type.includes('null')) || schema.anyOf?.some((s) => s.type === 'null')),
  );
}

/** A bare `{"type":"object"}` is how the document shows a property declared `string | null` (no class behind it). */
function isPropertyOfUnionType(schema: OpenApiSchema | undefined): boolean {
  return schema !== undefined && schema.type === 'object' && !schema.$ref && !schema.allOf && !schema.properties;
}

/**
 * A value of the schema's shape whose leaves are sometimes valid, sometimes hostile; with
 * `hostile` false every leaf is valid for its type, odd text included (emoji, RTL, SQL, LIKE
 * wildcards), so the request is accepted and that text goes all the way to SQL and back.
 */
export function shapedValue(
  schema: OpenApiSchema | undefined,
  doc: OpenApiDocument,
  fixtures: Fixtures,
  depth = 0,
  hostile = true,
  name = '',
): Arbitrary<unknown> {
  const s = resolve(schema, doc);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  let valid: Arbitrary<unknown>;
  // Formats first: the document types some UUID fields as `object`.
  if (s.enum?.length) valid = fc.constantFrom(...s.enum);
  else if (s.format === 'uuid') valid = uuidForms(fixtures, !hostile);
  else if (s.format === 'date-time')
    valid = fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  else if (s.format === 'email' || /email/i.test(name))
    valid = fc.emailAddress().filter((email) => email.length <= (s.maxLength ?? 255));
  else if (s.format === 'uri' || /url$/i.test(name))
    valid = fc.webUrl({ withQueryParameters: true }).filter((url) => url.length <= (s.maxLength ?? 2000));
  else if (s.properties || (type === 'object' && !isPropertyOfUnionType(schema))) {
    if (depth > 4) return fc.constant({});
    const properties = Object.fromEntries(
      Object.entries(s.properties ?? {}).map(([key, property]) => [
        key,
        shapedValue(property, doc, fixtures, depth + 1, hostile, key),
      ]),
    );
    const required = (s.required ?? []).filter((key) => key in properties);
    valid = fc.record(properties, { requiredKeys: required });
  } else if (type === 'array') {
    const minLength = s.minItems ?? 0;
    valid =
      depth > 4
        ? fc.constant([])
        : fc.array(shapedValue(s.items, doc, fixtures, depth + 1, hostile), {
            minLength,
            maxLength: Math.max(minLength, 3),
          });
  } else if (type === 'integer' || (type === 'number' && !hostile))
    valid = fc.integer({ min: s.minimum ?? (hostile ? -5 : 0), max: Math.min(s.maximum ?? 1000, 1_000_000) });
  else if (type === 'number') valid = fc.double({ min: s.minimum ?? -5, max: s.maximum ?? 1000, noNaN: true });
  else if (type === 'boolean') valid = fc.boolean();
  else if (type === 'string' || type === 'object' || type === undefined) {
    const minLength = s.minLength ?? 0;
    const maxLength = s.maxLength ?? 255;
    valid = fc
      .oneof(
        fc.constantFrom(...fixtures.words),
        fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, 20)) }),
        storableOddText(maxLength),
      )
      .filter((value) => [...value].length >= minLength && value.length <= maxLength);
  } else valid = jsonScalar();
  if (!hostile) return valid;
  // Mostly valid leaves, so that a good share of bodies passes validation and reaches the service and SQL.
  const alternatives = [
    { weight: 12, arbitrary: valid },
    { weight: 1, arbitrary: text() as Arbitrary<unknown> },
    { weight: 1, arbitrary: hostileJson() },
  ];
  return admitsNull(schema) || admitsNull(s)
    ? fc.oneof(...alternatives, { weight: 1, arbitrary: fc.constant(null) })
    : fc.oneof(...alternatives);
}

/** UTF-8 bytes of a string as percent-encoding (unpaired surrogates become U+FFFD, as any client would send them). */
export function percentEncode(value: string): string {
  let encoded = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** An already-encoded path segment for parameter `name`. */
export function pathSegment(name: string, fixtures: Fixtures): Arbitrary<string> {
  const real: Arbitrary<string> =
    name === 'slug' && fixtures.slugs.length > 0
      ? fc.constantFrom(...fixtures.slugs)
      : name === 'domain' && fixtures.domains.length > 0
        ? fc.constantFrom(...fixtures.domains)
        : name === 'file' && fixtures.cardFiles.length > 0
          ? fc.constantFrom(...fixtures.cardFiles)
          : uuidForms(fixtures);
  return fc.oneof(
    { weight: 8, arbitrary: real.map(percentEncode) },
    {
      weight: 2,
      arbitrary: text()
        .map((value) => percentEncode(value.slice(0, 3000)))
        .filter((value) => value.length > 0),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_SEGMENTS) },
  );
}

/** A query string (with `?`) over the route's documented parameters plus strays, duplicates included. */
export function queryString(
  parameters: { name: string; schema?: OpenApiSchema }[],
  doc: OpenApiDocument,
  fixtures: Fixtures,
): Arbitrary<string> {
  const valueOf = (schema: OpenApiSchema | undefined) =>
    fc.oneof(
      {
        weight: 8,
        arbitrary: shapedValue(schema, doc, fixtures).map((v) =>
          percentEncode((typeof v === 'string' ? v : (JSON.stringify(v) ?? '')).slice(0, 1000)),
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_SEGMENTS) },
    );
  const names = [...parameters.map((p) => p.name), 'limit', 'offset', 'q', 'email', 'sort'];
  const pair = fc
    .constantFrom(...names)
    .chain((name) => fc.tuple(fc.constant(name), valueOf(parameters.find((p) => p.name === name)?.schema)));
  const stray = fc.tuple(
    fc.oneof(
      fc.constantFrom('%00', '__proto__', 'constructor', 'a[b]', 'a[]', '%FF'),
      text().map((v) => percentEncode(v.slice(0, 50))),
    ),
    valueOf(undefined),
  );
  return fc
    .array(fc.oneof({ weight: 4, arbitrary: pair }, { weight: 1, arbitrary: stray }), { maxLength: 6 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));
}

/** A header value Node's HTTP client will send: visible Latin-1, tabs and spaces. */
export function headerValue(): Arbitrary<string> {
  return fc.oneof(
    fc.uuid(),
    fc.constantFrom(
      '',
      ' ',
      'k'.repeat(255),
      'k'.repeat(256),
      'k'.repeat(4000),
      '%00',
      "' OR 1=1 --",
      '\\',
      '%_',
      '"etag"',
      'W/"x"',
      '*',
      'ÿþ',
      '\u00e9t\u00e9',
    ),
    fc.string({
      unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c === 0x7f ? 0x7e : c)),
      maxLength: 300,
    }),
  );
}

export type FuzzBody =
  { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; bytes: Buffer; contentType: string | null };

const INVALID_UTF8: readonly number[][] = [
  [0xff],
  [0xfe],
  [0x80],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe0, 0xa4],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

/** What a request carries: a shaped body, any JSON, raw bytes (malformed, deep, not UTF-8) or the wrong content type. */
export function requestBody(
  schema: OpenApiSchema | undefined,
  doc: OpenApiDocument,
  fixtures: Fixtures,
): Arbitrary<FuzzBody> {
  const shaped = schema
    ? fc.oneof(
        { weight: 2, arbitrary: shapedValue(schema, doc, fixtures) },
        { weight: 1, arbitrary: shapedValue(schema, doc, fixtures, 0, false) },
      )
    : hostileJson();
  const raw = (
    arbitrary: Arbitrary<string | Buffer>,
    contentType: Arbitrary<string | null> = fc.constant('application/json'),
  ) =>
    fc.tuple(arbitrary, contentType).map(([body, type]): FuzzBody => ({
      kind: 'raw',
      bytes: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
      contentType: type,
    }));
  const notUtf8 = fc.tuple(shaped, fc.constantFrom(...INVALID_UTF8)).map(([value, bad]) => {
    const textual = JSON.stringify(value) ?? '{}';
    const cut = Math.max(textual.indexOf('"') + 1, 0);
    return Buffer.concat([Buffer.from(textual.slice(0, cut)), Buffer.from(bad), Buffer.from(textual.slice(cut))]);
  });
  const deep = fc
    .tuple(fc.integer({ min: 60, max: 250_000 }), fc.constantFrom('[', '{"a":', '{"links":[', '{"name":'), fc.boolean())
    .map(([depth, open, closed]) => {
      const close = open === '[' ? ']' : open === '{"links":[' ? ']}' : '}';
      return `${open.repeat(depth)}${closed ? `1${close.repeat(depth)}` : ''}`;
    });
  const malformed = fc.constantFrom(
    '{',
    '{"a":1,}',
    "{'a':1}",
    '{"a" 1}',
    '[1 2]',
    'nul',
    'NaN',
    '{"a":NaN}',
    '{"a":"\\x"}',
    '"\\ud800"',
    '{"a":"\\u00"}',
    '\ufeff{}',
    '{}{}',
    ' ',
    '\u0000',
    '{"a":1}\u0000',
  );
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant<FuzzBody>({ kind: 'none' }) },
    { weight: 40, arbitrary: shaped.map((value): FuzzBody => ({ kind: 'json', value })) },
    { weight: 15, arbitrary: hostileJson().map((value): FuzzBody => ({ kind: 'json', value })) },
    { weight: 5, arbitrary: raw(notUtf8) },
    { weight: 5, arbitrary: raw(deep) },
    { weight: 5, arbitrary: raw(malformed) },
    // Past the 1 MiB limit (and, rarely, past the 5 MiB one of link creation and events).
    {
      weight: 1,
      arbitrary: fc.constantFrom(1024 * 1024 + 1, 5 * 1024 * 1024 + 1).map((size): FuzzBody => ({
        kind: 'raw',
        bytes: Buffer.from(`{"name":"${'x'.repeat(size)}"}`),
        contentType: 'application/json',
      })),
    },
    {
      weight: 5,
      arbitrary: raw(
        shaped.map((value) => JSON.stringify(value) ?? ''),
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'application/vnd.api+json',
          'application/json; charset=utf-8',
          null,
        ),
      ),
    },
  );
}
