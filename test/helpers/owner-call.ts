import { expect } from 'vitest';

/**
 * An owner's API call that must succeed: JSON bodies as JSON, FormData as multipart, the
 * person's headers; the parsed answer. For end-to-end tests that set a scene up through the API.
 */
export function ownerCaller(baseUrl: () => string, headers: () => Record<string, string>) {
  return async function ownerCall<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const isForm = body instanceof FormData;
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { ...headers(), ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return res.json() as Promise<T>;
  };
}
