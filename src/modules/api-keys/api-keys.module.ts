import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyChanges } from '../../common/auth/api-key-changes';
import { PrincipalLookup } from '../../common/auth/principal';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyEntity } from './entities/api-key.entity';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [
    ApiKeysRepository,
    ApiKeysService,
    ApiKeyChanges,
    { provide: PrincipalLookup, useExisting: ApiKeysService },
  ],
  exports: [ApiKeysService, PrincipalLookup],
})
export class ApiKeysModule {}
