import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { BEARER_SCHEME } from './auth/require-role.decorator.js';
import { completeOpenApiDocument } from './common/openapi/complete-openapi-document.js';
import { ProblemDetailsDto } from './common/openapi/problem-details.dto.js';
import { OPERATION_ID_NAMESPACE } from './ledger/index.js';

/**
 * Serves the OpenAPI document generated from the DTOs that validate requests (UI at /docs, JSON
 * at /docs-json), built on its first request rather than at start-up (docs/decisions.md "Start-up").
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
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'olk_<id>_<secret>',
        description: 'An API key (docs/api.md "Authentication, roles and tenants")',
      },
      BEARER_SCHEME,
    )
    .build();
  const document = () =>
    completeOpenApiDocument(SwaggerModule.createDocument(app, config, { extraModels: [ProblemDetailsDto] }));
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}
