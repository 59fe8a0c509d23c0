import { erasedLink, type ErasableLink } from './link-erasure';

const link = (fields: Partial<ErasableLink> = {}): ErasableLink => ({
  display_name: 'Ada Lovelace, Analytical',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@analytical.example',
  phone: '+44 20 7946 0000',
  role: 'CTO',
  company: 'Analytical',
  context: 'Met at the engine fair',
  share_title: 'A demo for Ada',
  share_description: 'Built for the Analytical team',
  share_thumbnail_url: 'https://links.example/thumbnails/x/y.png',
  thumbnail_status: 'generated',
  ...fields,
});

describe('erasedLink', () => {
  it('empties every prospect field', () => {
    expect(erasedLink(link())).toMatchObject({
      first_name: null,
      last_name: null,
      email: null,
      phone: null,
      role: null,
      company: null,
      context: null,
    });
  });

  it('resets a display name derived from the prospect to the default', () => {
    expect(erasedLink(link()).display_name).toBe('Custom Link');
    expect(erasedLink(link({ display_name: 'ada@analytical.example' })).display_name).toBe('Custom Link');
    expect(erasedLink(link({ display_name: 'Call LOVELACE back' })).display_name).toBe('Custom Link');
  });

  it('keeps a display name, title and description that name none of their values', () => {
    const erased = erasedLink(link({ display_name: 'Q3 outreach', share_title: 'Our demo', share_description: null }));
    expect(erased).toMatchObject({ display_name: 'Q3 outreach', share_title: 'Our demo', share_description: null });
  });

  it('drops a title or description that names them, whatever the case', () => {
    expect(erasedLink(link())).toMatchObject({ share_title: null, share_description: null });
  });

  it('also drops text naming values found elsewhere (a session name)', () => {
    const erased = erasedLink(link({ first_name: null, last_name: null, share_title: 'Hello Augusta' }), ['Augusta']);
    expect(erased.share_title).toBeNull();
  });

  it('withdraws a rendered card, and a provided one only when its URL names them', () => {
    expect(erasedLink(link()).withdrawCard).toBe(true);
    expect(erasedLink(link({ thumbnail_status: 'provided' })).withdrawCard).toBe(false);
    expect(
      erasedLink(link({ thumbnail_status: 'provided', share_thumbnail_url: 'https://cdn.example/ada-lovelace.png' }))
        .withdrawCard,
    ).toBe(true);
  });
});
