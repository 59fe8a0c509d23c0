import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Draining } from './draining';
import { QueueIntake } from './queue-intake';

/** What a shutdown drives before closing the app (src/stop-on-signals.ts), in every role. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [Draining, QueueIntake],
  exports: [Draining, QueueIntake],
})
export class ShutdownModule {}
