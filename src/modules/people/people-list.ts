/** The people list's name in the CountCache; part of its Redis keys, so it never changes. */
export const PEOPLE_LIST = 'people';
