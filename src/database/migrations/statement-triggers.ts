/** The plpgsql function of statementTriggers; `replace` redefines an existing one (CREATE OR REPLACE). */
export function statementTriggerFunction(
  fn: string,
  bodies: { insert: string; update: string; delete: string },
  replace = false,
): string {
  return `CREATE ${replace ? 'OR REPLACE ' : ''}FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'INSERT' THEN ${bodies.insert}
         ELSIF TG_OP = 'UPDATE' THEN ${bodies.update}
         ELSE ${bodies.delete}
         END IF;
         RETURN NULL;
       END $$`;
}

/**
 * One plpgsql function run by AFTER … FOR EACH STATEMENT triggers on INSERT, UPDATE and DELETE of a
 * table, seeing the statement's rows as the transition tables `old_rows` / `new_rows`; its body
 * branches on TG_OP. Returns the statements creating them and those dropping them.
 */
export function statementTriggers(
  table: string,
  triggerPrefix: string,
  fn: string,
  bodies: { insert: string; update: string; delete: string },
): { up: string[]; down: string[] } {
  const events = [
    ['insert', 'INSERT', 'NEW TABLE AS new_rows'],
    ['update', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
    ['delete', 'DELETE', 'OLD TABLE AS old_rows'],
  ] as const;
  return {
    up: [
      statementTriggerFunction(fn, bodies),
      ...events.map(
        ([name, event, tables]) =>
          `CREATE TRIGGER ${triggerPrefix}_${name} AFTER ${event} ON ${table} REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      ),
    ],
    down: [
      ...events.map(([name]) => `DROP TRIGGER ${triggerPrefix}_${name} ON ${table}`).reverse(),
      `DROP FUNCTION ${fn}()`,
    ],
  };
}
