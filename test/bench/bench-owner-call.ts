/** The owner API as a bench calls it to set its scene up: JSON or multipart, and a thrown error on any failure. */
export function benchOwnerCall(apiUrl: string, ownerHeaders: Record<string, string>) {
  return async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${apiUrl}${url}`, {
      method,
      headers: body instanceof FormData ? { authorization: ownerHeaders.authorization } : ownerHeaders,
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
}
