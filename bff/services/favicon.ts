/** The pages' icon (a white cube on the console's navy), inline so that no request or route serves it. */
export const FAVICON_DATA_URL =
  'data:image/svg+xml,' +
  encodeURIComponent(
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='7' fill='#224'/>" +
      "<path d='M16 6l9 5v10l-9 5-9-5V11zM7 11l9 5 9-5M16 16v10' fill='none' stroke='#fff' stroke-width='2'" +
      " stroke-linejoin='round'/></svg>",
  );
