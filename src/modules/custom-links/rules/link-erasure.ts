import { defaultDisplayName } from './link-defaults';

/** The fields an erasure reads of a link. */
export interface ErasableLink {
  display_name: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  role: string | null;
  company: string | null;
  context: string | null;
  share_title: string | null;
  share_description: string | null;
  share_thumbnail_url: string | null;
  thumbnail_status: string;
}

/** What an erasure writes to a link; the card fields only when its card is withdrawn. */
export interface ErasedLink {
  first_name: null;
  last_name: null;
  email: null;
  phone: null;
  role: null;
  company: null;
  context: null;
  display_name: string;
  share_title: string | null;
  share_description: string | null;
  /** True when the link's card named the person: it is withdrawn (docs/api.md §18.2). */
  withdrawCard: boolean;
}

/**
 * A link personalized for an erased person, without them (docs/api.md §18.2): every prospect field
 * emptied; the display name, share title and share description kept only when they name none of the
 * prospect's values (the default display name, "First Last, Company" or the email, always does).
 * A rendered card drew the prospect's name and company: it is withdrawn, and so is a provided card
 * whose URL names them. Values are compared case-insensitively; `extra` are values the erasure found
 * elsewhere (the sessions' names).
 */
export function erasedLink(link: ErasableLink, extra: readonly string[] = []): ErasedLink {
  const values = [link.first_name, link.last_name, link.email, link.phone, link.company, ...extra]
    .map((value) => value?.trim().toLowerCase())
    .filter((value): value is string => !!value);
  const names = (text: string | null) => text !== null && values.some((value) => text.toLowerCase().includes(value));
  const derivedName =
    link.display_name ===
      defaultDisplayName({
        firstName: link.first_name,
        lastName: link.last_name,
        company: link.company,
        email: link.email,
      }) || names(link.display_name);
  return {
    first_name: null,
    last_name: null,
    email: null,
    phone: null,
    role: null,
    company: null,
    context: null,
    display_name: derivedName ? defaultDisplayName({}) : link.display_name,
    share_title: names(link.share_title) ? null : link.share_title,
    share_description: names(link.share_description) ? null : link.share_description,
    withdrawCard: link.thumbnail_status !== 'provided' || names(link.share_thumbnail_url),
  };
}
