export { CARD_SUBJECTS, type CardSubject, type CardSubjects, type RenderOutcome } from './card-subjects';
export { ThumbnailRendersService } from './thumbnail-renders.service';
export { ThumbnailsHttpModule, ThumbnailsWorkerModule, ThumbnailsModule } from './thumbnails.module';
