import { Module } from '@nestjs/common';
import { BackupController } from './backup.controller.js';

/** Backups of the embedded store over HTTP (`POST /v1/admin/backup`). */
@Module({ controllers: [BackupController] })
export class BackupModule {}
