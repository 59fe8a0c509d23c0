import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The checkout's ./.data: where `npm start` keeps a developer's embedded services and their data. */
export const CHECKOUT_DATA = join(__dirname, '..', '..', '.data');

/**
 * Every entry under ./.data with its size and modification time ('absent' when there is none), so a
 * test can show that a run neither started a developer's services nor wrote their data.
 */
export function checkoutDataState(dir = CHECKOUT_DATA): string[] | 'absent' {
  if (!existsSync(dir)) return 'absent';
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((entry) => {
      const stat = statSync(join(dir, entry), { throwIfNoEntry: false });
      return stat ? `${entry} ${stat.isDirectory() ? 'dir' : stat.size} ${stat.mtimeMs}` : `${entry} gone`;
    });
}
