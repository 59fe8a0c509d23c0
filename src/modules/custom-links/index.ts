export { CustomLinksHttpModule, CustomLinksWorkerModule, CustomLinksModule } from './custom-links.module';
export { CustomLinksService } from './custom-links.service';
export { CreateLinksRequest } from './dto/create-links.request';
export { CustomLinkListQuery } from './dto/custom-link-list.query';
export { LinkCreationService } from './link-creation.service';
export { linkCreationWindows, thumbnailRenderWindows } from './link-limits';
export { LinkErasure } from './link-erasure';
export { LinkAccessEvents } from './link-access-events';
export { CustomLinkResponse } from './dto/custom-link.response';
