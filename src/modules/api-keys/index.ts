export { ApiKeysModule } from './api-keys.module';
export { ApiKeysService } from './api-keys.service';
