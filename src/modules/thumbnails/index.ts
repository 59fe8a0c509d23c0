export { CARD_SUBJECTS, type CardSubject, type CardSubjects, type RenderOutcome } from './card-subjects';
export { ThumbnailRendersService } from './thumbnail-renders.service';
export { ThumbnailsHttpModule } from './thumbnails-http.module';
export { ThumbnailsJobsModule } from './thumbnails-jobs.module';
export { ThumbnailsModule } from './thumbnails.module';
