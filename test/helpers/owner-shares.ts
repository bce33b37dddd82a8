import { expect } from 'vitest';
import type { TestPerson } from './test-server.js';

export interface Shared {
  id: string;
  token: string;
}

/** An owner's share calls on a server's API, each expected to succeed. */
export function ownerShares(baseUrl: string, owner: TestPerson) {
  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...owner.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return res.json();
  }
  return {
    call,
    /** Share settings of a project (PUT /projects/:id/share). */
    put: async (id: string, settings: Record<string, unknown>) =>
      (await call('PUT', `/projects/${id}/share`, settings)).settings,
    /** A new project (named `name`) shared with `settings` (enabled unless told otherwise). */
    async share(settings: Record<string, unknown> = {}, name = 'Sofa'): Promise<Shared> {
      const { project } = await call('POST', '/projects', {
        name,
        type: 'configurator',
        data: { models: [], sceneData: {} },
      });
      const { shareToken } = (await call('PUT', `/projects/${project.id}/share`, { isEnabled: true, ...settings }))
        .settings;
      return { id: project.id, token: shareToken };
    },
  };
}
