import { Module } from '@nestjs/common';
import { AccountsController } from './accounts.controller';
import { AccountsModule } from './accounts.module';

/** The accounts routes (API role only). */
@Module({ imports: [AccountsModule], controllers: [AccountsController] })
export class AccountsHttpModule {}
