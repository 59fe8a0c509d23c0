/**
 * The statement half of the Citus compatibility check (issue 35 point 2; docs/scaling.md, "Citus
 * compatibility (statements)"): a small scanner over the SQL snapshot (src/queries, sql-snapshot.ts)
 * that finds the statements Citus refuses on a table distributed by `organization_id`, or fans out to
 * every shard. It tokenizes the text PostgreSQL receives (a `${...}` interpolation is one opaque
 * token) and nests tokens by parentheses; that is enough for the shapes below, which are what Citus
 * itself looks at (multi_router_planner.c: ErrorIfOnConflictNotSupported, MasterIrreducibleExpression,
 * SingleShardUpdateDeleteSupported):
 *
 * - `mutable-in-upsert`: a non-immutable function (now(), random(), a stable one such as
 *   jsonb_build_object) or timestamp arithmetic in `ON CONFLICT … DO UPDATE` (its SET or WHERE).
 * - `mutable-in-conditional`: a non-immutable function inside CASE, COALESCE, GREATEST or LEAST of a
 *   statement that writes (INSERT, UPDATE, DELETE, modifying CTEs included).
 * - `stable-with-column`: in an UPDATE's SET list or the WHERE of an UPDATE or DELETE, a
 *   non-immutable function given a column.
 * - `mutable-in-returning`: a non-immutable function in the RETURNING list of a write.
 * - `unscoped-lock`: `FOR UPDATE` / `FOR SHARE` (SKIP LOCKED or not) in a SELECT whose own WHERE does
 *   not compare `organization_id` with a parameter: Citus cannot lock rows across shards.
 * - `correlated-tenant`: a subquery comparing `organization_id` with an outer row's column while the
 *   statement has the tenant as a parameter: `organization_id = $n` routes it to one shard.
 * - `parameter-in-insert-select`: a parameter in the select list of `INSERT … SELECT … FROM` a table,
 *   which Citus refuses when it pushes the INSERT … SELECT down to the shards.
 * - `volatile-in-write`: a volatile function anywhere in an UPDATE or DELETE (its subqueries too):
 *   Citus refuses it; a SELECT around a write (a modifying CTE) may call one.
 *
 * How volatile each function is comes from the database (`pg_proc`): the caller passes the answer.
 */

export type CitusRule =
  | 'mutable-in-upsert'
  | 'mutable-in-conditional'
  | 'stable-with-column'
  | 'mutable-in-returning'
  | 'volatile-in-write'
  | 'unscoped-lock'
  | 'correlated-tenant'
  | 'parameter-in-insert-select';

export interface CitusFinding {
  rule: CitusRule;
  /** What was found, e.g. `now()` or `j.organization_id`. */
  detail: string;
}

/** The volatility of the function of that name (of its most volatile overload); undefined when no function has the name. */
export type Volatility = (name: string) => 'immutable' | 'stable' | 'volatile' | undefined;

const mutable = (volatility: ReturnType<Volatility>) => volatility === 'stable' || volatility === 'volatile';

interface Token {
  kind: 'word' | 'param' | 'string' | 'interpolation' | 'open' | 'close' | 'punct';
  text: string;
  /** Lower case for words. */
  key: string;
  depth: number;
  /** For `open`: the index of its `close`. */
  match?: number;
}

/** The SQL value functions that read the clock without parentheses: all STABLE. */
const CLOCK_KEYWORDS = new Set(['current_timestamp', 'current_date', 'current_time', 'localtime', 'localtimestamp']);

/** Words that precede `(` without being a function call. */
const NOT_CALLS = new Set([
  'in',
  'any',
  'all',
  'some',
  'exists',
  'values',
  'as',
  'into',
  'on',
  'and',
  'or',
  'not',
  'using',
  'over',
  'filter',
  'within',
  'lateral',
  'from',
  'join',
  'where',
  'select',
  'array',
  'row',
  'conflict',
  'set',
  'with',
  'then',
  'else',
  'when',
  'interval',
]);

/** Conditional expressions: Citus refuses a mutable function in their arguments. */
const CONDITIONALS = new Set(['coalesce', 'greatest', 'least']);

/** Keywords that are not column references (the first word of `$1::text` is not one either). */
const KEYWORDS = new Set([
  ...NOT_CALLS,
  'null',
  'true',
  'false',
  'is',
  'distinct',
  'case',
  'end',
  'between',
  'like',
  'ilike',
  'default',
  'excluded',
  'asc',
  'desc',
  'nulls',
  'first',
  'last',
  'collate',
  'at',
  'time',
  'zone',
  'ordinality',
]);

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  const stack: number[] = [];
  const push = (kind: Token['kind'], text: string) => {
    const token: Token = { kind, text, key: kind === 'word' ? text.toLowerCase() : text, depth: stack.length };
    if (kind === 'open') {
      stack.push(tokens.length);
    } else if (kind === 'close') {
      const open = stack.pop();
      token.depth = stack.length;
      if (open !== undefined) tokens[open].match = tokens.length;
    }
    tokens.push(token);
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (sql.startsWith('--', i)) {
      i = sql.indexOf('\n', i) === -1 ? sql.length : sql.indexOf('\n', i);
    } else if (sql.startsWith('${', i)) {
      const end = interpolationEnd(sql, i + 2);
      push('interpolation', sql.slice(i, end));
      i = end;
    } else if (c === "'" || c === '"') {
      let end = i + 1;
      while (end < sql.length && !(sql[end] === c && sql[end + 1] !== c)) end += sql[end] === c ? 2 : 1;
      // A quoted identifier is a word; a string literal is not.
      if (c === '"') push('word', sql.slice(i + 1, end));
      else push('string', sql.slice(i, end + 1));
      i = end + 1;
    } else if (c === '$' && /\d/.test(sql[i + 1] ?? '')) {
      const match = /^\$\d+/.exec(sql.slice(i))!;
      push('param', match[0]);
      i += match[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))!;
      push('word', match[0]);
      i += match[0].length;
    } else if (c === '(') {
      push('open', c);
      i++;
    } else if (c === ')') {
      push('close', c);
      i++;
    } else if (sql.startsWith('::', i)) {
      push('punct', '::');
      i += 2;
    } else {
      push('punct', c);
      i++;
    }
  }
  return tokens;
}

/** The end of `${...}` (after its `}`), balancing braces and skipping template and string literals inside. */
function interpolationEnd(sql: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < sql.length && depth > 0) {
    const c = sql[i];
    if (c === '`' || c === "'" || c === '"') {
      let end = i + 1;
      while (end < sql.length && sql[end] !== c) end += sql[end] === '\\' ? 2 : 1;
      i = end + 1;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') depth--;
    i++;
  }
  return i;
}

/** Every finding of every rule in one statement. */
export function citusFindings(sql: string, volatility: Volatility): CitusFinding[] {
  const tokens = tokenize(sql);
  return [
    ...mutableInUpsert(tokens, volatility),
    ...mutableInConditional(tokens, volatility),
    ...stableWithColumn(tokens, volatility),
    ...mutableInReturning(tokens, volatility),
    ...volatileInWrite(tokens, volatility),
    ...unscopedLocks(tokens),
    ...correlatedTenant(tokens),
    ...parameterInInsertSelect(tokens),
  ];
}

/** The end (exclusive) of the group a token at `start` sits in: its closing parenthesis or the text's end. */
function groupEnd(tokens: Token[], start: number): number {
  const depth = tokens[start].depth;
  let i = start;
  while (i < tokens.length && !(tokens[i].kind === 'close' && tokens[i].depth < depth)) i++;
  return i;
}

/** The start of the group a token sits in: after its opening parenthesis, or 0. */
function groupStart(tokens: Token[], at: number): number {
  const depth = tokens[at].depth;
  let i = at;
  while (i > 0 && !(tokens[i - 1].kind === 'open' && tokens[i - 1].depth < depth)) i--;
  return i;
}

/** The non-immutable functions called (or clock keywords used) in tokens [from, to). */
function mutableCalls(tokens: Token[], from: number, to: number, volatility: Volatility): string[] {
  const found: string[] = [];
  for (let i = from; i < to; i++) {
    const token = tokens[i];
    if (token.kind !== 'word') continue;
    if (CLOCK_KEYWORDS.has(token.key)) found.push(token.text);
    if (isCall(tokens, i) && mutable(volatility(token.key))) found.push(`${token.text}()`);
  }
  return found;
}

function isCall(tokens: Token[], i: number): boolean {
  const token = tokens[i];
  const before = tokens[i - 1];
  return (
    token.kind === 'word' &&
    tokens[i + 1]?.kind === 'open' &&
    !NOT_CALLS.has(token.key) &&
    !(before?.kind === 'word' && (before.key === 'as' || before.key === 'into')) &&
    !(before?.kind === 'punct' && (before.text === '.' || before.text === '::'))
  );
}

const isWord = (token: Token | undefined, ...keys: string[]) => token?.kind === 'word' && keys.includes(token.key);

function mutableInUpsert(tokens: Token[], volatility: Volatility): CitusFinding[] {
  const findings: CitusFinding[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!(isWord(tokens[i], 'do') && isWord(tokens[i + 1], 'update') && tokens[i].depth === tokens[i + 1].depth))
      continue;
    const depth = tokens[i].depth;
    let end = i + 2;
    while (
      end < tokens.length &&
      tokens[end].depth >= depth &&
      !(tokens[end].kind === 'close' && tokens[end].depth < depth)
    ) {
      if (tokens[end].depth === depth && isWord(tokens[end], 'returning')) break;
      end++;
    }
    for (const call of mutableCalls(tokens, i + 2, end, volatility))
      findings.push({ rule: 'mutable-in-upsert', detail: call });
    for (let k = i + 2; k < end; k++) {
      // timestamptz ± interval is STABLE (it depends on the time zone).
      if (isWord(tokens[k], 'interval') && !isCall(tokens, k)) {
        findings.push({ rule: 'mutable-in-upsert', detail: 'interval arithmetic' });
        break;
      }
    }
  }
  return findings;
}

/** INSERT, UPDATE or DELETE anywhere (not `FOR UPDATE`, `NO KEY UPDATE` or `DO UPDATE`). */
function writes(tokens: Token[]): boolean {
  return tokens.some(
    (token, i) =>
      isWord(token, 'insert', 'delete') || (isWord(token, 'update') && !isWord(tokens[i - 1], 'for', 'key', 'do')),
  );
}

function mutableInConditional(tokens: Token[], volatility: Volatility): CitusFinding[] {
  if (!writes(tokens)) return [];
  const findings: CitusFinding[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let end: number | undefined;
    if (isWord(tokens[i], 'case')) end = caseEnd(tokens, i);
    else if (CONDITIONALS.has(tokens[i].key) && tokens[i].kind === 'word' && tokens[i + 1]?.kind === 'open')
      end = tokens[i + 1].match;
    if (end === undefined) continue;
    for (const call of mutableCalls(tokens, i + 1, end, volatility))
      findings.push({ rule: 'mutable-in-conditional', detail: `${call} in ${tokens[i].key.toUpperCase()}` });
  }
  return findings;
}

function caseEnd(tokens: Token[], start: number): number {
  let nested = 0;
  for (let i = start + 1; i < tokens.length; i++) {
    if (isWord(tokens[i], 'case')) nested++;
    else if (isWord(tokens[i], 'end')) {
      if (nested === 0) return i;
      nested--;
    }
  }
  return tokens.length;
}

function isColumn(tokens: Token[], i: number): boolean {
  const token = tokens[i];
  const before = tokens[i - 1];
  if (token.kind !== 'word' || KEYWORDS.has(token.key) || CLOCK_KEYWORDS.has(token.key)) return false;
  if (tokens[i + 1]?.kind === 'open' || tokens[i + 1]?.kind === 'string') return false; // a call, or `timestamptz '...'`
  if (before?.kind === 'punct' && before.text === '::') return false; // a type
  if (tokens[i + 1]?.kind === 'punct' && tokens[i + 1].text === '.') return false; // a table qualifier
  return true;
}

/**
 * Tokens [start, end) of the clause `key` of the statement whose first word is at `from`: the first
 * `key` at that depth, up to the next of `ends` at that depth or the statement's end; null without one.
 */
function clause(tokens: Token[], from: number, key: string, ends: string[]): [number, number] | null {
  const depth = tokens[from].depth;
  const last = groupEnd(tokens, from);
  let start = from + 1;
  while (start < last && !(tokens[start].depth === depth && isWord(tokens[start], key))) start++;
  if (start >= last) return null;
  let end = start + 1;
  while (end < last && !(tokens[end].depth === depth && isWord(tokens[end], ...ends))) end++;
  return [start + 1, end];
}

function stableWithColumn(tokens: Token[], volatility: Volatility): CitusFinding[] {
  const findings: CitusFinding[] = [];
  for (let w = 0; w < tokens.length; w++) {
    const update = isWord(tokens[w], 'update') && !isWord(tokens[w - 1], 'for', 'key', 'do');
    if (!update && !isWord(tokens[w], 'delete')) continue;
    // What Citus checks of a write: an UPDATE's SET list, and the WHERE of both.
    const ranges = [
      update ? clause(tokens, w, 'set', ['from', 'where', 'returning']) : null,
      clause(tokens, w, 'where', ['returning']),
    ];
    for (const range of ranges) {
      if (range === null) continue;
      const [from, to] = range;
      for (let i = from; i < to; i++) {
        if (!isCall(tokens, i) || !mutable(volatility(tokens[i].key))) continue;
        const close = tokens[i + 1].match ?? to;
        for (let k = i + 2; k < close; k++) {
          if (isColumn(tokens, k)) {
            findings.push({ rule: 'stable-with-column', detail: `${tokens[i].text}(… ${tokens[k].text} …)` });
            break;
          }
        }
      }
    }
  }
  return findings;
}

function volatileInWrite(tokens: Token[], volatility: Volatility): CitusFinding[] {
  const findings: CitusFinding[] = [];
  for (let w = 0; w < tokens.length; w++) {
    const update = isWord(tokens[w], 'update') && !isWord(tokens[w - 1], 'for', 'key', 'do');
    if (!update && !isWord(tokens[w], 'delete')) continue;
    for (let i = w + 1; i < groupEnd(tokens, w); i++) {
      if (isCall(tokens, i) && volatility(tokens[i].key) === 'volatile')
        findings.push({ rule: 'volatile-in-write', detail: `${tokens[i].text}()` });
    }
  }
  return findings;
}

function mutableInReturning(tokens: Token[], volatility: Volatility): CitusFinding[] {
  const findings: CitusFinding[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!isWord(tokens[i], 'returning')) continue;
    for (const call of mutableCalls(tokens, i + 1, groupEnd(tokens, i), volatility))
      findings.push({ rule: 'mutable-in-returning', detail: call });
  }
  return findings;
}

/** `[alias.]organization_id = $n` or `$n = [alias.]organization_id` among tokens [from, to) at `depth`. */
function scopedByTenant(tokens: Token[], from: number, to: number, depth: number): boolean {
  for (let i = from; i < to; i++) {
    if (tokens[i].depth !== depth || !isWord(tokens[i], 'organization_id')) continue;
    const next = tokens[i + 1];
    const after = tokens[i + 2];
    if (next?.text === '=' && after?.kind === 'param') return true;
    let back = i - 1;
    if (tokens[back]?.text === '.') back -= 2;
    if (tokens[back]?.text === '=' && tokens[back - 1]?.kind === 'param') return true;
  }
  return false;
}

function unscopedLocks(tokens: Token[]): CitusFinding[] {
  const findings: CitusFinding[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!isWord(tokens[i], 'for')) continue;
    const strength = isWord(tokens[i + 1], 'update', 'share')
      ? tokens[i + 1].text
      : isWord(tokens[i + 1], 'no', 'key') && isWord(tokens[i + 3], 'update', 'share')
        ? `${tokens[i + 1].text} ${tokens[i + 2].text} ${tokens[i + 3].text}`
        : undefined;
    if (strength === undefined) continue;
    const start = groupStart(tokens, i);
    if (!scopedByTenant(tokens, start, i, tokens[i].depth))
      findings.push({ rule: 'unscoped-lock', detail: `FOR ${strength.toUpperCase()}` });
  }
  return findings;
}

/** The names a SELECT's own FROM list introduces at `depth` (tables and aliases). */
function fromNames(tokens: Token[], from: number, to: number, depth: number): Set<string> {
  const names = new Set<string>();
  const clauseEnds = new Set(['where', 'group', 'order', 'limit', 'having', 'on', 'union', 'window', 'for', 'offset']);
  let listing = false;
  for (let i = from; i < to; i++) {
    const token = tokens[i];
    if (token.depth !== depth) continue;
    if (isWord(token, 'from', 'join') || (listing && token.text === ',')) {
      listing = true;
      let k = i + 1;
      if (isWord(tokens[k], 'lateral', 'only')) k++;
      if (tokens[k]?.kind === 'open') k = (tokens[k].match ?? k) + 1;
      else if (tokens[k]?.kind === 'word') {
        names.add(tokens[k].key);
        k++;
        if (tokens[k]?.kind === 'open') k = (tokens[k].match ?? k) + 1; // a function in FROM
      }
      if (isWord(tokens[k], 'with') && isWord(tokens[k + 1], 'ordinality')) k += 2;
      if (isWord(tokens[k], 'as')) k++;
      if (
        tokens[k]?.kind === 'word' &&
        !clauseEnds.has(tokens[k].key) &&
        !isWord(tokens[k], 'join', 'cross', 'left', 'inner')
      )
        names.add(tokens[k].key);
    } else if (token.kind === 'word' && clauseEnds.has(token.key)) {
      listing = false;
    }
  }
  return names;
}

function correlatedTenant(tokens: Token[]): CitusFinding[] {
  if (!scopedByTenantAnywhere(tokens)) return [];
  const findings: CitusFinding[] = [];
  for (let open = 0; open < tokens.length; open++) {
    if (tokens[open].kind !== 'open' || !isWord(tokens[open + 1], 'select', 'with')) continue;
    const depth = tokens[open].depth + 1;
    const close = tokens[open].match ?? tokens.length;
    const own = fromNames(tokens, open + 1, close, depth);
    for (let i = open + 1; i < close; i++) {
      if (tokens[i].depth !== depth || !isWord(tokens[i], 'organization_id')) continue;
      if (tokens[i - 1]?.text !== '.' || tokens[i - 2]?.kind !== 'word') continue;
      const qualifier = tokens[i - 2].key;
      if (own.has(qualifier)) continue;
      const compared = tokens[i - 3]?.text === '=' || tokens[i + 1]?.text === '=';
      if (compared) findings.push({ rule: 'correlated-tenant', detail: `${tokens[i - 2].text}.organization_id` });
    }
  }
  return findings;
}

function scopedByTenantAnywhere(tokens: Token[]): boolean {
  return tokens.some((token, i) => token.kind === 'word' && scopedByTenant(tokens, i, i + 1, token.depth));
}

function parameterInInsertSelect(tokens: Token[]): CitusFinding[] {
  const findings: CitusFinding[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!isWord(tokens[i], 'insert') || !isWord(tokens[i + 1], 'into')) continue;
    const depth = tokens[i].depth;
    const end = groupEnd(tokens, i);
    let select = i + 2;
    while (select < end && !(tokens[select].depth === depth && isWord(tokens[select], 'select', 'values'))) select++;
    if (select >= end || isWord(tokens[select], 'values')) continue;
    let from = select + 1;
    while (from < end && !(tokens[from].depth === depth && isWord(tokens[from], 'from'))) from++;
    if (from >= end) continue;
    // A table (not a function such as unnest, not a CTE's name): a table name is a word not followed by `(`.
    const source = tokens[from + 1];
    if (source?.kind !== 'word' || tokens[from + 2]?.kind === 'open' || !sourceIsTable(tokens, source.key)) continue;
    const params = tokens.slice(select + 1, from).filter((token) => token.kind === 'param' && token.depth === depth);
    if (params.length > 0)
      findings.push({
        rule: 'parameter-in-insert-select',
        detail: `${params.map((p) => p.text).join(', ')} FROM ${source.text}`,
      });
  }
  return findings;
}

/** Not a CTE of the statement (`name AS (`). */
function sourceIsTable(tokens: Token[], name: string): boolean {
  return !tokens.some(
    (token, i) => token.key === name && isWord(tokens[i + 1], 'as') && tokens[i + 2]?.kind === 'open',
  );
}
