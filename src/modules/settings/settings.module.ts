import { Module } from '@nestjs/common';
import { SettingsController } from './settings.controller';
import { SettingsRepository } from './settings.repository';
import { SettingsService } from './settings.service';

/** Organization settings for every role (engagement reads the internal traffic rules). */
@Module({ providers: [SettingsRepository, SettingsService], exports: [SettingsService] })
export class SettingsModule {}

/** The settings routes (API role only). */
@Module({ imports: [SettingsModule], controllers: [SettingsController] })
export class SettingsHttpModule {}
