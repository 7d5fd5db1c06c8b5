// Herald's mark, the same as the dashboard's: the favicon of the pages it serves and the logo of /docs.

/** A blue rounded square with a white envelope. */
export const FAVICON_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' " +
  "height='16' rx='3' fill='#2450d6'/><path d='M4 5l4 3 4-3v6H4z' " +
  "fill='white'/></svg>";

/** The favicon as a data: URL, for pages whose policy loads nothing else. */
export const FAVICON_DATA_URL = `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`;

/** The mark and the name, for the API reference's top bar (white text on its dark bar). */
export const LOGO_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' width='150' height='32' viewBox='0 0 150 " +
  "32'><rect width='32' height='32' rx='6' fill='#2450d6'/><path d='M8 10l8 6 " +
  "8-6v12H8z' fill='white'/><text x='42' y='23' font-family='system-ui,sans-serif' " +
  "font-size='20' font-weight='700' fill='white'>Herald API</text></svg>";
