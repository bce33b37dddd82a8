/** The interface version every answer names in `X-Api-Version` (server and BFF). */
export const API_VERSION = 'v3.16';
