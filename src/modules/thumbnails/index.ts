export { CARD_SUBJECTS, type CardSubject, type CardSubjects, type RenderOutcome } from './card-subjects';
export { ThumbnailRendersService } from './thumbnail-renders.service';
export { ThumbnailsHttpModule } from './thumbnails-http.module';
export { ThumbnailsWorkerModule } from './thumbnails-worker.module';
export { ThumbnailsModule } from './thumbnails.module';
