import { Module } from '@nestjs/common';
import { ThumbnailsController } from './thumbnails.controller';
import { ThumbnailsModule } from './thumbnails.module';

/** The public card route (API role only). */
@Module({ imports: [ThumbnailsModule], controllers: [ThumbnailsController] })
export class ThumbnailsHttpModule {}
