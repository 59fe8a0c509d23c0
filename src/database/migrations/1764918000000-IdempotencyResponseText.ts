import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stored idempotent answer is kept as the JSON text that was sent, not as jsonb. A 422 echoes
 * the input it refused (docs/api.md §7.3), and that input may hold U+0000 or an unpaired surrogate:
 * JSON text escapes both (`\u0000`, `\ud800`), while jsonb refuses them (SQLSTATE 22P05), which
 * turned such a 422 into a 500 on an @Idempotent route (issue 17). Nothing queries inside the body.
 */
export class IdempotencyResponseText1764918000000 implements MigrationInterface {
  name = 'IdempotencyResponseText1764918000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE idempotency_records ALTER COLUMN response_body TYPE text USING response_body::text`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Answers jsonb cannot hold are dropped: their keys can be used again (records live 24 hours).
    await queryRunner.query(`DELETE FROM idempotency_records WHERE response_body ~* '\\\\u(0000|d[89a-f])'`);
    await queryRunner.query(
      `ALTER TABLE idempotency_records ALTER COLUMN response_body TYPE jsonb USING response_body::jsonb`,
    );
  }
}
