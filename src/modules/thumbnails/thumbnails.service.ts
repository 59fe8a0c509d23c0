import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/domain-errors';
import { canonicalUuid } from '../../common/validation/uuid-format';
import { InjectPort } from '../../common/wiring/port';
import { CARD_SUBJECTS, type CardSubjects } from './card-subjects';
import { THUMBNAIL_STORE, type ThumbnailStore } from './thumbnail-store';

const PNG_FILE = /^([0-9a-f]{64})\.png$/;

/** Serves stored share cards by link and content hash, while their link is public (active). */
@Injectable()
export class ThumbnailsService {
  constructor(
    @Inject(THUMBNAIL_STORE) private readonly store: ThumbnailStore,
    @InjectPort(CARD_SUBJECTS) private readonly subjects: CardSubjects,
  ) {}

  async card(linkId: string, file: string): Promise<Buffer> {
    const hash = PNG_FILE.exec(file)?.[1];
    const id = canonicalUuid(linkId);
    // The URL names no organization: the link's comes from its global id, before the card within it.
    const organizationId = hash && id ? await this.subjects.organizationOf(id) : null;
    if (!hash || !id || !organizationId) throw new NotFoundError('Not Found');
    const card = await this.store.get({ organizationId, linkId: id, hash });
    // A deactivated link's card is kept (reactivating serves it again) but not served meanwhile.
    if (!card || !(await this.subjects.isPublic(organizationId, id))) throw new NotFoundError('Not Found');
    return card.png;
  }
}
