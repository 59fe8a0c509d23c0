import { distributionPlan, type ForeignKey, type SchemaTable } from './distribution-plan';

const tables: SchemaTable[] = [
  { name: 'sessions', tenant: true },
  { name: 'session_transcripts', tenant: true },
  { name: 'organizations', tenant: false },
  { name: 'slug_lookup', tenant: false },
  { name: 'typeorm_migrations', tenant: false },
  { name: 'custom_links', tenant: true },
  { name: 'campaigns', tenant: true },
];
const keys: ForeignKey[] = [
  { from: 'session_transcripts', to: 'sessions' },
  { from: 'sessions', to: 'organizations' },
  { from: 'custom_links', to: 'campaigns' },
  { from: 'custom_links', to: 'organizations' },
  { from: 'slug_lookup', to: 'organizations' },
];

describe('distributionPlan', () => {
  it('distributes organizations by id first, then the global tables as reference tables, then tenants after what they reference', () => {
    expect(distributionPlan(tables, keys, new Set())).toEqual([
      { table: 'organizations', kind: 'distributed', column: 'id' },
      { table: 'slug_lookup', kind: 'reference' },
      { table: 'campaigns', kind: 'distributed', column: 'organization_id' },
      { table: 'custom_links', kind: 'distributed', column: 'organization_id' },
      { table: 'sessions', kind: 'distributed', column: 'organization_id' },
      { table: 'session_transcripts', kind: 'distributed', column: 'organization_id' },
    ]);
  });

  it('skips what is distributed already, so it can run again', () => {
    const all = distributionPlan(tables, keys, new Set()).map((step) => step.table);
    expect(distributionPlan(tables, keys, new Set(all))).toEqual([]);
    expect(distributionPlan(tables, keys, new Set(['organizations', 'slug_lookup'])).map((s) => s.table)).toEqual([
      'campaigns',
      'custom_links',
      'sessions',
      'session_transcripts',
    ]);
  });

  it('refuses a schema without organizations, and a foreign key cycle', () => {
    expect(() => distributionPlan([{ name: 'sessions', tenant: true }], [], new Set())).toThrow(/organizations/);
    expect(() =>
      distributionPlan(
        [...tables, { name: 'a', tenant: true }, { name: 'b', tenant: true }],
        [...keys, { from: 'a', to: 'b' }, { from: 'b', to: 'a' }],
        new Set(),
      ),
    ).toThrow(/cycle: a -> b -> a/);
  });
});
