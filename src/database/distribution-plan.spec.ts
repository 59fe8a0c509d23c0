import { distributionPlan, type ForeignKey, type SchemaTable } from './distribution-plan';

const tables: SchemaTable[] = [
  { name: 'sessions', tenant: true, soleKey: null },
  { name: 'session_transcripts', tenant: true, soleKey: null },
  { name: 'organizations', tenant: false, soleKey: 'id' },
  { name: 'slug_lookup', tenant: false, soleKey: null },
  { name: 'session_ids', tenant: false, soleKey: 'id' },
  { name: 'typeorm_migrations', tenant: false, soleKey: 'id' },
  { name: 'custom_links', tenant: true, soleKey: null },
  { name: 'campaigns', tenant: true, soleKey: null },
];
const keys: ForeignKey[] = [
  { from: 'session_transcripts', to: 'sessions' },
  { from: 'sessions', to: 'organizations' },
  { from: 'custom_links', to: 'campaigns' },
  { from: 'custom_links', to: 'organizations' },
  { from: 'slug_lookup', to: 'organizations' },
];

describe('distributionPlan', () => {
  it('distributes organizations by id first, then the global tables (by their sole key in a group of their own, else as reference tables), then tenants after what they reference', () => {
    const tenant = (table: string) => ({
      table,
      kind: 'distributed',
      column: 'organization_id',
      colocateWith: 'organizations',
    });
    expect(distributionPlan(tables, keys, new Set())).toEqual([
      { table: 'organizations', kind: 'distributed', column: 'id', colocateWith: null },
      { table: 'session_ids', kind: 'distributed', column: 'id', colocateWith: 'none' },
      { table: 'slug_lookup', kind: 'reference' },
      tenant('campaigns'),
      tenant('custom_links'),
      tenant('sessions'),
      tenant('session_transcripts'),
    ]);
  });

  it('skips what is distributed already, so it can run again', () => {
    const all = distributionPlan(tables, keys, new Set()).map((step) => step.table);
    expect(distributionPlan(tables, keys, new Set(all))).toEqual([]);
    expect(
      distributionPlan(tables, keys, new Set(['organizations', 'session_ids', 'slug_lookup'])).map((s) => s.table),
    ).toEqual(['campaigns', 'custom_links', 'sessions', 'session_transcripts']);
  });

  it('refuses a schema without organizations, and a foreign key cycle', () => {
    expect(() => distributionPlan([{ name: 'sessions', tenant: true, soleKey: null }], [], new Set())).toThrow(
      /organizations/,
    );
    expect(() =>
      distributionPlan(
        [...tables, { name: 'a', tenant: true, soleKey: null }, { name: 'b', tenant: true, soleKey: null }],
        [...keys, { from: 'a', to: 'b' }, { from: 'b', to: 'a' }],
        new Set(),
      ),
    ).toThrow(/cycle: a -> b -> a/);
  });
});
