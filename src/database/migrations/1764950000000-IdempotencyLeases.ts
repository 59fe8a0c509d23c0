import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Key claims become leases (issue 18): `lease_token` names the request that holds the
 * key (a random id per request), `lease_expires_at` is pushed forward by that request's heartbeat.
 * Only the holder commits, completes or releases the record; another request takes the key over
 * only once the lease has lapsed. Existing rows get a fresh token and the old rule (60 s after the
 * claim).
 *
 * A third state, `committed`: the mutation stored its answer in its own transaction and its request
 * has not finished. Retries get 409 while its lease lives and the stored answer once it lapsed (the
 * request died after its commit); the mutation never runs again.
 */
export class IdempotencyLeases1764950000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE idempotency_records ADD COLUMN lease_token uuid, ADD COLUMN lease_expires_at timestamptz`,
    );
    await queryRunner.query(
      `UPDATE idempotency_records SET lease_token = gen_random_uuid(), lease_expires_at = created_at + interval '60 seconds'`,
    );
    await queryRunner.query(
      `ALTER TABLE idempotency_records ALTER COLUMN lease_token SET NOT NULL, ALTER COLUMN lease_expires_at SET NOT NULL`,
    );
    await queryRunner.query(`
      ALTER TABLE idempotency_records DROP CONSTRAINT idempotency_records_state_check,
        ADD CONSTRAINT idempotency_records_state_check CHECK (state IN ('in_flight', 'committed', 'completed'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE idempotency_records SET state = 'completed' WHERE state = 'committed'`);
    await queryRunner.query(`
      ALTER TABLE idempotency_records DROP CONSTRAINT idempotency_records_state_check,
        ADD CONSTRAINT idempotency_records_state_check CHECK (state IN ('in_flight', 'completed')),
        DROP COLUMN lease_expires_at, DROP COLUMN lease_token`);
  }
}
