// Renders /api/openapi.json with Swagger UI (from swagger-ui-dist). A file of its own: the CSP allows no
// inline script.
/* global window, SwaggerUIBundle -- a browser page; swagger-ui-bundle.js defines SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
});
