export { CampaignsHttpModule } from './campaigns-http.module';
export { CampaignsModule } from './campaigns.module';
export { CampaignsService } from './campaigns.service';
