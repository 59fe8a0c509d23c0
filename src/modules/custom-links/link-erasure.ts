import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CountCache } from '../../common/pagination/count-cache';
import { present, type DataSubject, type SubjectTraces } from '../../common/privacy/data-subject';
import { CustomLinkJobsService } from '../custom-link-jobs';
import { LinkFiling } from '../engagement';
import { ThumbnailRendersService } from '../thumbnails';
import { CustomLinksRepository, type LinkColumns } from './custom-links.repository';
import { LINK_TEXT_FIELDS, type LinkTextField } from './dto/link-fields.request';
import { LINK_LIST } from './link-list';
import { erasedLink } from './rules/link-erasure';

/** Link fields that are not about the prospect: the card's image URL and their company's domain and logo. */
const COMPANY_FIELDS: readonly LinkTextField[] = ['shareThumbnailUrl', 'prospectLogoUrl', 'prospectDomain'];
/** The fields of a job item's input that an erasure removes: the prospect's, and text derived from them. */
const PROSPECT_INPUT_FIELDS = LINK_TEXT_FIELDS.filter((field) => !COMPANY_FIELDS.includes(field));

/** What a withdrawn card leaves on its link: no card, none requested. */
const NO_CARD: LinkColumns = {
  thumbnail_status: 'not_requested',
  share_thumbnail_url: null,
  thumbnail_error_code: null,
  thumbnail_error_message: null,
  thumbnail_render_id: null,
};

/**
 * Erasure of a person from the Custom Links personalized for them (docs/api.md §18.2): in one
 * transaction, their links (locked in id order, as bulk actions lock them) lose every prospect field
 * (rule erasedLink), a card that drew them is withdrawn (renders cancelled, images deleted), and the
 * job items that made the links lose the prospect fields of their input. The links themselves, their
 * slugs and their engagement stay.
 */
@Injectable()
export class LinkErasure {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly links: CustomLinksRepository,
    private readonly thumbnails: ThumbnailRendersService,
    private readonly jobs: CustomLinkJobsService,
    private readonly counts: CountCache,
    private readonly filing: LinkFiling,
  ) {}

  /** The subject's links: their ids, and the emails, phones and names they hold. */
  async traces(organizationId: string, subject: DataSubject): Promise<SubjectTraces> {
    const rows = await this.links.ofSubject(organizationId, subject);
    return {
      ids: rows.map((row) => row.id),
      contacts: present(rows.flatMap((row) => [row.email, row.phone])),
      names: present(rows.flatMap((row) => [row.first_name, row.last_name])),
    };
  }

  /** Erases the subject from their links; `names` are values found elsewhere (their sessions'). Returns how many links. */
  async erase(organizationId: string, subject: DataSubject, names: readonly string[]): Promise<number> {
    const erased = await this.db.transaction(async (tx) => {
      const rows = await this.links.lockOfSubject(tx, organizationId, subject);
      for (const row of rows) {
        const { withdrawCard, ...columns } = erasedLink(row, names);
        if (withdrawCard) await this.thumbnails.withdraw(tx, organizationId, row.id);
        const written = await this.links.update(
          tx,
          organizationId,
          row.id,
          withdrawCard ? { ...columns, ...NO_CARD } : columns,
        );
        // Nothing a campaign counts is erased; kept in step all the same, as every write of a link.
        await this.filing.figuresChanged(tx, organizationId, [{ before: row, after: written }]);
      }
      await this.jobs.redactItems(
        tx,
        organizationId,
        rows.map((row) => row.id),
        subject,
        PROSPECT_INPUT_FIELDS,
      );
      return rows.length;
    });
    if (erased > 0) await this.counts.invalidate(organizationId, LINK_LIST);
    return erased;
  }
}
