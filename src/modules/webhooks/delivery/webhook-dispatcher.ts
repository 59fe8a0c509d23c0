import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfigService } from '../../../config/app-config';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

/** On every worker: every WEBHOOK_DISPATCH_INTERVAL_MS, queues the deliveries that are due and that nobody sends. */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookDispatcher');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly deliveries: WebhookDeliveriesService,
    private readonly config: AppConfigService,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.running = this.deliveries
        .dispatchDue()
        .catch((err: unknown) => this.logger.warn({ err }, 'Webhook dispatch round failed'))
        .finally(() => {
          if (!this.stopped) this.schedule();
        });
    }, this.config.values.webhooks.dispatchIntervalMs);
    this.timer.unref();
  }
}
