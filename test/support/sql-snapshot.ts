/**
 * The SQL snapshot (src/queries/*.sql, issue 31): every statement the production code hands to
 * PostgreSQL, found statically with the TypeScript compiler, one file per source file, so that a
 * query change shows up in review as a diff of the snapshot. A statement is a `.query(sql, ...)`
 * call (TypeORM's DataSource, EntityManager and QueryRunner, pg's Client and Pool) or a call to a
 * helper that passes one of its parameters on as the SQL of such a call (`preparedQuery`, a local
 * `query` arrow), found to a fixed point. Migrations are left out: each is a frozen script reviewed
 * as it is written, not a query the code runs again.
 *
 * The SQL is written as PostgreSQL receives it, dedented; `${...}` interpolations stay verbatim. An
 * identifier or property is followed to the constant it names (in the same file or imported); any
 * other expression (a call building SQL, a condition) is written as `${expression}` under a note.
 * Used by `npm run sql:snapshot` (sql-snapshot-cli.ts), src/sql-snapshot.spec.ts (the snapshot is
 * current) and test/sql-snapshot.e2e-spec.ts (PostgreSQL plans every statement known statically).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import ts from 'typescript';

export const SNAPSHOT_DIR = 'src/queries';
const MIGRATIONS = 'src/database/migrations/';
const NOT_A_LITERAL = '-- not a literal: the SQL is what this expression returns at run time';

export interface SnapshotQuery {
  /** `Class.method` or the function's name, with ` (n)` for the n-th statement of one body. */
  name: string;
  sql: string;
  /** Holds `${...}`: parts of the text are only known at run time. */
  interpolated: boolean;
  /**
   * When every interpolation names a constant: the text with the constants in place, as PostgreSQL
   * receives it. Not written to the snapshot (which shows the code's text); checked like static SQL.
   */
  inlined?: string;
  /**
   * When some interpolations name constants and others do not: the text with the constants in place
   * and the others left as `${...}`, for checks that read what they can (citus-statements.ts).
   */
  partial?: string;
}

export interface SnapshotFile {
  /** The source file, relative to the project root. */
  source: string;
  /** Its snapshot, relative to the project root. */
  target: string;
  queries: SnapshotQuery[];
}

/** Every production source file's statements, in source order; files without any are left out. */
export function collectQueries(root: string): SnapshotFile[] {
  const program = productionProgram(root);
  const checker = program.getTypeChecker();
  const sources = program
    .getSourceFiles()
    .filter((file) => isProductionSource(relative(root, file.fileName)))
    .sort((a, b) => a.fileName.localeCompare(b.fileName));
  const calls = sources.flatMap(callsOf);
  const helpers = queryHelpers(calls, checker);

  const found = sources.map((file) => ({ source: relative(root, file.fileName), queries: [] as SnapshotQuery[] }));
  const named = new Map<string, number>();
  for (const call of calls) {
    const sql = sqlArgument(call, helpers, checker);
    if (sql === undefined || forwardedParameter(sql, checker) !== undefined) continue;
    const file = found[sources.indexOf(call.getSourceFile())];
    const owner = `${file.source}#${ownerName(call)}`;
    const count = (named.get(owner) ?? 0) + 1;
    named.set(owner, count);
    const name = count === 1 ? ownerName(call) : `${ownerName(call)} (${count})`;
    file.queries.push({ name, ...renderSql(sql, checker) });
  }
  const withQueries = found.filter((file) => file.queries.length > 0);
  const targets = snapshotNames(withQueries.map((file) => file.source));
  return withQueries.map((file, i) => ({ ...file, target: targets[i] }));
}

/** The snapshot files' text by path relative to the root. */
export function renderSnapshot(files: SnapshotFile[]): Map<string, string> {
  return new Map(
    files.map((file) => [
      file.target,
      [
        `-- Generated from ${file.source} by \`npm run sql:snapshot\`; do not edit.\n`,
        ...file.queries.map((query) => `-- ${query.name}\n${query.sql}\n`),
      ].join('\n'),
    ]),
  );
}

export interface SnapshotDrift {
  /** Committed, but with other text than the code generates. */
  changed: string[];
  /** Generated, but not committed. */
  missing: string[];
  /** Committed, but for no source statement any more. */
  stale: string[];
}

/** How the committed snapshot differs from what the code generates now. */
export function snapshotDrift(root: string, generated: Map<string, string>): SnapshotDrift {
  const committed = committedSnapshot(root);
  const drift: SnapshotDrift = { changed: [], missing: [], stale: [] };
  for (const [path, text] of generated) {
    if (!committed.includes(path)) drift.missing.push(path);
    else if (readFileSync(join(root, path), 'utf8') !== text) drift.changed.push(path);
  }
  drift.stale = committed.filter((path) => !generated.has(path));
  return drift;
}

/** The committed snapshot files, relative to the root. */
export function committedSnapshot(root: string): string[] {
  const dir = join(root, SNAPSHOT_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => `${SNAPSHOT_DIR}/${name}`);
}

function isProductionSource(path: string): boolean {
  return (
    path.startsWith('src/') &&
    path.endsWith('.ts') &&
    !path.endsWith('.d.ts') &&
    !path.endsWith('.spec.ts') &&
    !path.startsWith(MIGRATIONS)
  );
}

/**
 * The program over src/ with the project's compiler options, so imports between its files resolve as
 * tsc resolves them; packages are not loaded (no statement's SQL comes from one, and reading their
 * declarations would take most of the time).
 */
function productionProgram(root: string): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${join(root, 'tsconfig.json')}`);
  const rootNames = config.fileNames.filter((file) => isProductionSource(relative(root, file)));
  return ts.createProgram({ rootNames, options: { ...config.options, noEmit: true, noResolve: true, types: [] } });
}

function callsOf(file: ts.SourceFile): ts.CallExpression[] {
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return calls;
}

/** Which argument carries the SQL, by the helper's symbol. */
type Helpers = Map<ts.Symbol, number>;

/**
 * Functions that pass one of their parameters on as a statement's SQL, to a fixed point: a helper
 * of a helper is one too.
 */
function queryHelpers(calls: ts.CallExpression[], checker: ts.TypeChecker): Helpers {
  const helpers: Helpers = new Map();
  for (let grown = true; grown;) {
    grown = false;
    for (const call of calls) {
      const sql = sqlArgument(call, helpers, checker);
      const forwarded = sql && forwardedParameter(sql, checker);
      if (!forwarded || helpers.has(forwarded.helper)) continue;
      helpers.set(forwarded.helper, forwarded.index);
      grown = true;
    }
  }
  return helpers;
}

/** The SQL expression of a statement call, or undefined when the call runs none. */
function sqlArgument(call: ts.CallExpression, helpers: Helpers, checker: ts.TypeChecker): ts.Expression | undefined {
  const callee = call.expression;
  const helper = calleeSymbol(callee, checker);
  if (helper && helpers.has(helper)) return call.arguments[helpers.get(helper)!];
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'query') return undefined;
  const first = call.arguments[0];
  if (first === undefined) return undefined;
  // pg's query config: { name, text, values }.
  if (ts.isObjectLiteralExpression(first)) {
    const text = first.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'text');
    if (text && ts.isPropertyAssignment(text)) return text.initializer;
    if (text && ts.isShorthandPropertyAssignment(text)) return text.name;
    return undefined;
  }
  // A type the program cannot tell (from a package it does not load) counts: a statement missed
  // silently would be worse than a `.query` that is not one showing up in review.
  const type = checker.getTypeAtLocation(first).flags;
  return type & (ts.TypeFlags.StringLike | ts.TypeFlags.Any | ts.TypeFlags.Unknown) ? first : undefined;
}

function calleeSymbol(callee: ts.Expression, checker: ts.TypeChecker): ts.Symbol | undefined {
  return valueSymbol(ts.isPropertyAccessExpression(callee) ? callee.name : callee, checker);
}

/** What a name refers to: through imports, and to the variable in `{ text }`. */
function valueSymbol(node: ts.Node, checker: ts.TypeChecker): ts.Symbol | undefined {
  const symbol =
    node.parent && ts.isShorthandPropertyAssignment(node.parent)
      ? checker.getShorthandAssignmentValueSymbol(node.parent)
      : checker.getSymbolAtLocation(node);
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** When the SQL is a parameter of a named function, that function (a helper) and the parameter's index. */
function forwardedParameter(
  sql: ts.Expression,
  checker: ts.TypeChecker,
): { helper: ts.Symbol; index: number } | undefined {
  if (!ts.isIdentifier(sql)) return undefined;
  const parameter = valueSymbol(sql, checker)?.valueDeclaration;
  if (!parameter || !ts.isParameter(parameter)) return undefined;
  const fn = parameter.parent;
  const name = ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) ? bindingName(fn.parent) : fn.name;
  const helper = name && checker.getSymbolAtLocation(name);
  return helper ? { helper, index: fn.parameters.indexOf(parameter) } : undefined;
}

/** The name a function expression is bound to (`const f = () => ...`, a property), if any. */
function bindingName(parent: ts.Node): ts.PropertyName | ts.BindingName | undefined {
  if (ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent))
    return parent.name;
  return undefined;
}

/** `Class.member` or the function's name for the statement's place in the code. */
function ownerName(node: ts.Node): string {
  let topLevel: string | undefined;
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isClassElement(at) && at.parent && ts.isClassLike(at.parent)) {
      const member = ts.isConstructorDeclaration(at) ? 'constructor' : at.name ? at.name.getText() : '(member)';
      return `${at.parent.name?.text ?? '(class)'}.${member}`;
    }
    // In a decorator of the class (a module's provider factory).
    if (ts.isClassLike(at) && at.name) return at.name.text;
    if (ts.isFunctionDeclaration(at) && at.name) return at.name.text;
    if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name)) topLevel = at.name.text;
  }
  return topLevel ?? '(module)';
}

/** The statement's text for the snapshot. */
function renderSql(sql: ts.Expression, checker: ts.TypeChecker): Omit<SnapshotQuery, 'name'> {
  const resolved = resolveSql(sql, checker, new Set());
  if (ts.isStringLiteral(resolved) || ts.isNoSubstitutionTemplateLiteral(resolved))
    return { sql: dedent(resolved.text), interpolated: false };
  if (ts.isTemplateExpression(resolved)) {
    const text =
      resolved.head.text +
      resolved.templateSpans.map((span) => `\${${span.expression.getText()}}${span.literal.text}`).join('');
    const inlined = inlineConstants(resolved, checker);
    if (inlined !== undefined) return { sql: dedent(text), interpolated: true, inlined: inlined.trim() };
    const partial = inlineConstants(resolved, checker, true)!;
    return { sql: dedent(text), interpolated: true, ...(partial === text ? {} : { partial: partial.trim() }) };
  }
  return { sql: `${NOT_A_LITERAL}\n\${${dedent(resolved.getText())}}`, interpolated: true };
}

/**
 * The template's text with each interpolation replaced by the constant it names; undefined when one
 * names none, or with that one left as `${...}` when `partially`.
 */
function inlineConstants(
  template: ts.TemplateExpression,
  checker: ts.TypeChecker,
  partially = false,
): string | undefined {
  let text = template.head.text;
  for (const span of template.templateSpans) {
    const constant = resolveSql(span.expression, checker, new Set());
    const part =
      ts.isStringLiteral(constant) || ts.isNoSubstitutionTemplateLiteral(constant)
        ? constant.text
        : ts.isTemplateExpression(constant)
          ? inlineConstants(constant, checker, partially)
          : partially
            ? `\${${span.expression.getText()}}`
            : undefined;
    if (part === undefined) return undefined;
    text += part + span.literal.text;
  }
  return text;
}

/** What an expression names, through constants and imports: a literal, or the expression that builds the SQL. */
function resolveSql(expression: ts.Expression, checker: ts.TypeChecker, seen: Set<ts.Node>): ts.Expression {
  const node = unwrapped(expression);
  if (!ts.isIdentifier(node) && !ts.isPropertyAccessExpression(node)) return node;
  const declaration = constantDeclaration(node, checker);
  if (!declaration?.initializer || seen.has(declaration)) return node;
  seen.add(declaration);
  return resolveSql(declaration.initializer, checker, seen);
}

/** The expression inside parentheses, `as`, `satisfies` and `!`. */
function unwrapped(expression: ts.Expression): ts.Expression {
  while (
    ts.isParenthesizedExpression(expression) ||
    ts.isAsExpression(expression) ||
    ts.isTypeAssertionExpression(expression) ||
    ts.isSatisfiesExpression(expression) ||
    ts.isNonNullExpression(expression)
  )
    expression = expression.expression;
  return expression;
}

/** The declaration of a `const`, a readonly property or an object literal's property. */
function constantDeclaration(
  node: ts.Identifier | ts.PropertyAccessExpression,
  checker: ts.TypeChecker,
): ts.VariableDeclaration | ts.PropertyDeclaration | ts.PropertyAssignment | undefined {
  const declaration = valueSymbol(ts.isPropertyAccessExpression(node) ? node.name : node, checker)?.valueDeclaration;
  if (!declaration) return undefined;
  if (ts.isVariableDeclaration(declaration))
    return ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const ? declaration : undefined;
  if (ts.isPropertyDeclaration(declaration))
    return ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly ? declaration : undefined;
  return ts.isPropertyAssignment(declaration) ? declaration : undefined;
}

/** The text without the indentation its lines after the first share, trimmed. */
function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => line.length - line.trimStart().length);
  const common = indents.length === 0 ? 0 : Math.min(...indents);
  return [lines[0], ...lines.slice(1).map((line) => line.slice(common).trimEnd())].join('\n').trim();
}

/** `src/queries/<file>.sql`, prefixed with the folder when two source files share a name. */
function snapshotNames(sources: string[]): string[] {
  const base = (source: string) => basename(source, '.ts');
  const shared = new Set(sources.map(base).filter((name, i, all) => all.indexOf(name) !== i));
  return sources.map((source) =>
    shared.has(base(source))
      ? `${SNAPSHOT_DIR}/${basename(dirname(source))}.${base(source)}.sql`
      : `${SNAPSHOT_DIR}/${base(source)}.sql`,
  );
}
