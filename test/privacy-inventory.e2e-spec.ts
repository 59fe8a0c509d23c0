import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import {
  INVENTORY_FILE,
  inventoryProblems,
  parseInventory,
  schemaColumns,
  TEXT_TYPES,
  type SchemaColumn,
} from './support/privacy-inventory';

/**
 * The data inventory cannot go stale (issue 34 point 7): every text, JSON, binary or array column
 * of the run's freshly migrated schema is in docs/privacy.md's personal or not-personal list, and
 * every entry there names a column the schema has.
 */
describe('the data inventory (docs/privacy.md)', () => {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  const markdown = readFileSync(INVENTORY_FILE, 'utf8');
  let schema: SchemaColumn[];

  beforeAll(async () => {
    await client.connect();
    schema = await schemaColumns(client);
  });
  afterAll(() => client.end());

  /** `markdown` with `from`, which must occur exactly once, replaced by `to`. */
  function edited(from: string, to: string): string {
    expect(markdown.split(from).length - 1).toBe(1);
    return markdown.replace(from, () => to);
  }

  /** The one row of docs/privacy.md that starts with `start`, whatever its wording. */
  function rowStarting(start: string): string {
    const rows = markdown.split('\n').filter((line) => line.startsWith(start));
    expect(rows).toHaveLength(1);
    return rows[0];
  }

  /** `row` with its cell `index` (0: the table's) replaced by `text`, or removed when `text` is null. */
  function withCell(row: string, index: number, text: string | null): string {
    const cells = row.slice(1, -1).split('|');
    if (text === null) cells.splice(index, 1);
    else cells[index] = ` ${text} `;
    return `|${cells.join('|')}|`;
  }

  function problemsOf(text: string, columns: readonly SchemaColumn[] = schema): string[] {
    const { inventory, problems } = parseInventory(text);
    return [...problems, ...inventoryProblems(inventory, columns)];
  }

  it('reads the tables of the schema, partitioned parents included and their partitions left out', async () => {
    const { rows: partitions } = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c WHERE c.relispartition AND c.relnamespace = 'public'::regnamespace`,
    );
    expect(partitions.map((p) => p.name)).toContain('link_events_default');
    const tables = new Set(schema.map((c) => c.table));
    expect(partitions.filter((p) => tables.has(p.name))).toEqual([]);
    expect(tables).toContain('link_events');
    const text = schema.filter((c) => TEXT_TYPES.has(c.type)).map((c) => `${c.table}.${c.column}`);
    expect(text).toEqual(
      expect.arrayContaining([
        'sessions.email',
        'session_transcripts.entries',
        'link_events.visitor_id',
        'export_chunks.data',
        'api_keys.scopes',
      ]),
    );
    expect(text).not.toContain('sessions.start_time');
  });

  it('lists every text, JSON, binary and array column as personal or not, and no column the schema lacks', () => {
    expect(problemsOf(markdown)).toEqual([]);
  });

  it('says for every personal column what erasure and retention do to it and how long it is kept', () => {
    const { inventory } = parseInventory(markdown);
    expect(inventory.personal.length).toBeGreaterThanOrEqual(40);
    const silent = inventory.personal.filter((entry) =>
      [entry.erasure, entry.retention, entry.keptByDefault].some((text) => text.trim().length < 4),
    );
    expect(silent).toEqual([]);
    const personal = new Set(inventory.personal.map((entry) => `${entry.table}.${entry.column}`));
    for (const column of ['sessions.email', 'people.name', 'custom_links.phone', 'link_events.visitor_id'])
      expect(personal).toContain(column);
  });

  it('fails on a column in neither list', () => {
    const text = edited(`${rowStarting('| `sessions` | `phone` |')}\n`, '');
    expect(problemsOf(text)).toEqual([
      `sessions.phone (character varying) is in neither the personal nor the not-personal list of ${INVENTORY_FILE}`,
    ]);
  });

  it('fails on a misspelled column, and on one the schema no longer has', () => {
    const misspelled = problemsOf(edited('| `people` | `business` |', '| `people` | `busines` |'));
    expect(misspelled).toEqual([
      expect.stringMatching(/^people\.business \(character varying\) is in neither/),
      expect.stringMatching(/^docs\/privacy\.md:\d+: people\.busines: the table has no such column$/),
    ]);
    const withoutColumn = schema.filter((c) => !(c.table === 'people' && c.column === 'business'));
    expect(problemsOf(markdown, withoutColumn)).toEqual([
      expect.stringMatching(/^docs\/privacy\.md:\d+: people\.business: the table has no such column$/),
    ]);
    expect(problemsOf(edited('| `campaigns` | `name` |', '| `campaign` | `name` |'))).toEqual([
      expect.stringMatching(/^campaigns\.name \(character varying\) is in neither/),
      expect.stringMatching(/^docs\/privacy\.md:\d+: campaign\.name: the schema has no table campaign$/),
    ]);
  });

  it('fails on a malformed entry: a cell missing, one left empty, a name not in backticks, a list not separated by ", "', () => {
    const row = rowStarting('| `sessions` | `phone` |');
    expect(problemsOf(edited(row, withCell(row, 5, null)))).toEqual([
      expect.stringMatching(/^docs\/privacy\.md:\d+: 5 cells instead of 6$/),
      expect.stringMatching(/^sessions\.phone \(character varying\) is in neither/),
    ]);
    expect(problemsOf(edited(row, withCell(row, 3, '')))).toEqual([
      expect.stringMatching(/^docs\/privacy\.md:\d+: Erasure says nothing$/),
    ]);
    expect(problemsOf(edited(row, withCell(row, 4, 'TBD')))).toEqual([
      expect.stringMatching(/^docs\/privacy\.md:\d+: Retention says nothing$/),
    ]);
    expect(problemsOf(edited(row, withCell(row, 1, 'phone')))).toEqual([
      expect.stringMatching(/^docs\/privacy\.md:\d+: Column "phone" is not one `identifier`$/),
      expect.stringMatching(/^sessions\.phone \(character varying\) is in neither/),
    ]);
    expect(
      problemsOf(edited('| `people` | `first_source`, `last_source` |', '| `people` | `first_source`,`last_source` |')),
    ).toEqual([
      expect.stringMatching(/^docs\/privacy\.md:\d+: Columns .* is not a list of `identifier`s separated by ", "$/),
      expect.stringMatching(/^people\.first_source \(character varying\) is in neither/),
      expect.stringMatching(/^people\.last_source \(character varying\) is in neither/),
    ]);
  });

  it('fails on a column listed twice, and on a table that is not where it is expected', () => {
    const twice = problemsOf(edited('| `campaigns` | `name` |', '| `campaigns` | `name`, `name` |'));
    expect(twice).toEqual([
      expect.stringMatching(/^docs\/privacy\.md:\d+: campaigns\.name is listed again \(first at line \d+\)$/),
    ]);
    const both = problemsOf(
      edited('| `people` | `first_source`, `last_source` |', '| `people` | `first_source`, `last_source`, `name` |'),
    );
    expect(both).toEqual([
      expect.stringMatching(/^docs\/privacy\.md:\d+: people\.name is listed again \(first at line \d+\)$/),
    ]);
    expect(problemsOf(edited('## Not personal\n', '## Not personal data\n'))[0]).toBe(
      'docs/privacy.md: no heading "## Not personal"',
    );
    expect(
      problemsOf(edited('| Table | Columns | Why not personal |', '| Table | Column | Why not personal |'))[0],
    ).toMatch(/^docs\/privacy\.md:\d+: the header is not \| Table \| Columns \| Why not personal \|$/);
  });

  it('fails on a table the migrations add, for each of its text, JSON and array columns', async () => {
    await client.query('BEGIN');
    try {
      await client.query(
        `CREATE TABLE privacy_inventory_probe (id uuid, seen_at timestamptz, note text, payload jsonb, tags text[], label varchar(20))`,
      );
      expect(problemsOf(markdown, await schemaColumns(client))).toEqual(
        ['note (text)', 'payload (jsonb)', 'tags (ARRAY)', 'label (character varying)'].map(
          (column) =>
            `privacy_inventory_probe.${column} is in neither the personal nor the not-personal list of ${INVENTORY_FILE}`,
        ),
      );
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
