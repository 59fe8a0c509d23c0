import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * thumbnailError messages used to carry the reason a logo was refused, which could name a host, an
 * address it resolved to, a port or an upstream status. From now on a link shows one fixed message
 * per code (src/modules/thumbnails/thumbnail-errors.ts); the stored ones are rewritten to match. The
 * texts are copied here: a migration must keep doing what it did when it was written.
 */
const MESSAGES: Record<string, string> = {
  logo_fetch_failed: 'The prospect logo could not be fetched.',
  logo_invalid_image: 'The prospect logo is not a usable PNG, JPEG or GIF image.',
  render_failed: 'The share card could not be rendered.',
  render_timeout: 'The share card took too long to render.',
};

export class FixedThumbnailErrorMessages1764917000000 implements MigrationInterface {
  name = 'FixedThumbnailErrorMessages1764917000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE custom_links l SET thumbnail_error_message = m.message
         FROM jsonb_each_text($1::jsonb) AS m(code, message)
        WHERE l.thumbnail_error_code = m.code AND l.thumbnail_error_message IS DISTINCT FROM m.message`,
      [JSON.stringify(MESSAGES)],
    );
  }

  async down(): Promise<void> {
    // The former messages are gone on purpose; nothing to restore.
  }
}
