import { Module } from '@nestjs/common';
import { ApiKeyChanges } from '../../common/auth/api-key-changes';
import { PrincipalLookup } from '../../common/auth/principal';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  providers: [
    ApiKeysRepository,
    ApiKeysService,
    ApiKeyChanges,
    { provide: PrincipalLookup, useExisting: ApiKeysService },
  ],
  exports: [ApiKeysService, PrincipalLookup],
})
export class ApiKeysModule {}
