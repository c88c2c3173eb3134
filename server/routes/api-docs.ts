// The API reference (CONTRACT §21 "OpenAPI"), public: the document, and Swagger UI rendering it — the
// npm package's files, our page and its start script (no CDN, no inline script).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import getSwaggerUiPath from 'swagger-ui-dist/absolute-path.js';
import { openApiDocument } from '../openapi/document';

const PAGE_DIR = fileURLToPath(new URL('../openapi/page', import.meta.url));

export const apiDocsRoutes = Router();

apiDocsRoutes.get('/openapi.json', (_req, res) => {
  res.json(openApiDocument);
});

apiDocsRoutes.get('/docs', (_req, res) => {
  res.sendFile(path.join(PAGE_DIR, 'index.html'));
});

apiDocsRoutes.get('/docs/start.js', (_req, res) => {
  res.sendFile(path.join(PAGE_DIR, 'start.js'));
});

apiDocsRoutes.use('/docs/assets', express.static(getSwaggerUiPath(), { index: false }));
