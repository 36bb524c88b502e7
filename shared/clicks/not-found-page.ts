/**
 * The page of a tracked link that leads nowhere (unknown, altered or expired token): plain HTML, no
 * script, no style sheet, no link out, readable by a screen reader and in any language setting's
 * fallback. It never redirects, so a made-up token cannot send anyone anywhere.
 */
export const LINK_NOT_FOUND_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Link not found</title>
</head>
<body>
<main>
<h1>This link is not available</h1>
<p>The link you followed is unknown or has expired. Nothing was opened.</p>
<p>If you expected an offer or a page here, reply to the message you received and ask for a new link.</p>
</main>
</body>
</html>
`;
