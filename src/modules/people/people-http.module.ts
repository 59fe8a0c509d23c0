import { Module } from '@nestjs/common';
import { PeopleController } from './people.controller';
import { PeopleModule } from './people.module';

/** The people routes (API role only). */
@Module({ imports: [PeopleModule], controllers: [PeopleController] })
export class PeopleHttpModule {}
