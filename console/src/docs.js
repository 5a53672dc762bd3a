// Starts Swagger UI on the OpenAPI document of the listener that served this page:
// /api/v1/docs reads /api/v1/openapi.json, /admin/v1/docs reads /admin/v1/openapi.json.
const spec = window.location.pathname.replace(/\/docs\/?$/, '/openapi.json');
window.SwaggerUIBundle({
  url: spec,
  dom_id: '#swagger-ui',
  // The public validator badge would load an image from another origin.
  validatorUrl: null,
  // A token typed into "Authorize" stays in this page's memory, never in localStorage.
  persistAuthorization: false,
  tryItOutEnabled: true,
  deepLinking: false,
});
