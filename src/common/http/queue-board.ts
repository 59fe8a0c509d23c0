import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { QueueRegistry } from '../queue/queue-registry';
import { requireOperatorToken } from './operator-token';
import { docsSecurityHeaders } from './security-headers';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * bull-board at /admin/queues for every queue of the app, to requests carrying ADMIN_TOKEN (Bearer,
 * or Basic with the token as password so a browser can open it). Operators can retry, promote and
 * clean jobs there. Mounted only when ADMIN_TOKEN is set; otherwise the path is an unknown route (404).
 */
export function mountQueueBoard(app: NestExpressApplication, adminToken: string): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: app
      .get(QueueRegistry)
      .all()
      .map((queue) => new BullAdapter(queue)),
    serverAdapter,
  });
  // The board is an HTML page with its own scripts and styles: the documentation pages' policy.
  app.use(QUEUE_BOARD_PATH, docsSecurityHeaders, requireOperatorToken(adminToken, 'admin'), serverAdapter.getRouter());
}
