import { functions } from '../../runtime-contract/resource-definitions';

/**
 * The rendered reference: Swagger UI (swagger-ui-dist, served by the docs function itself, no
 * CDN, so it works offline) reading the document next to it. URLs are relative to the page's own
 * public path, so the page works at `/docs`, `/docs/` and behind a custom domain's base path.
 */
const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] as string);

/** The renderer's files the page loads (the docs function serves exactly these; CDK copies them next to the bundle). */
export const docsPageAssets: readonly string[] = functions.docs.bundledFiles?.files ?? [];

export function docsPageHtml(publicPath: string): string {
  const base = publicPath.endsWith('/') ? publicPath : `${publicPath}/`;
  const href = escapeHtml(base);
  // JSON.stringify keeps the value a string literal; `<` escaped so it cannot close the script element.
  const documentUrl = JSON.stringify(`${base}openapi.json`).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · WhatsApp business-messaging platform</title>
${docsPageAssets
  .filter((file) => file.endsWith('.css'))
  .map((file) => `<link rel="stylesheet" href="${href}assets/${escapeHtml(file)}">`)
  .join('\n')}
</head>
<body>
<div id="swagger-ui"></div>
${docsPageAssets
  .filter((file) => file.endsWith('.js'))
  .map((file) => `<script src="${href}assets/${escapeHtml(file)}"></script>`)
  .join('\n')}
<script>
window.ui = SwaggerUIBundle({ url: ${documentUrl}, dom_id: '#swagger-ui', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 });
</script>
</body>
</html>
`;
}
