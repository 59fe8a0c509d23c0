/** The session list's name in the CountCache; part of its Redis keys, so it never changes. */
export const SESSION_LIST = 'sessions';
