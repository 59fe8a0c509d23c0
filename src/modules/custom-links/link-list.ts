/** The Custom Link list's name in the CountCache; part of its Redis keys, so it never changes. */
export const LINK_LIST = 'custom-links';
