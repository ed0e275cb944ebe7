import { Global, Module } from '@nestjs/common';
import { GlobalCounts } from './global-counts.js';
import { PrismaService } from './prisma.service.js';

@Global()
@Module({ providers: [PrismaService, GlobalCounts], exports: [PrismaService, GlobalCounts] })
export class DatabaseModule {}
