import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { OPERATION_ID_NAMESPACE } from './ledger/index.js';

/**
 * Serves the OpenAPI document generated from the same DTOs that validate requests:
 * UI at /docs, JSON at /docs-json.
 */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Operation Ledger')
    .setDescription(
      'Claim an operation by its business key before doing its effect; the ledger answers go ahead, ' +
        'already done (replayed), in progress, payload conflict or awaiting recovery. Errors are RFC 9457 ' +
        `problem+json. operationId = UUID v5 of the canonical key under namespace ${OPERATION_ID_NAMESPACE}.`,
    )
    .setVersion('1')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}
