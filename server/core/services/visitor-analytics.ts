import { LRUCache } from 'lru-cache';
import { parseScene, type Scene } from '../wire/configurator/index.js';
import { notFound } from '../domain/errors.js';
import { decompressScene } from '../domain/scene.js';
import { analyticsQuery } from '../domain/visitor-events/analytics-query.js';
import { monthSpans } from '../domain/visitor-events/month-spans.js';
import { createShareRepository } from '../repositories/shares.js';
import { createProjectRepository } from '../repositories/projects.js';
import { createVisitorCounterRepository, type DayCounts } from '../repositories/visitor-counters.js';
import type { ServiceDeps } from './service-deps.js';

/** Parsed scenes kept for labels, by project and revision, bounded by the size of their JSON. */
const SCENES_BYTES = 16 * 1024 * 1024;

type Totals = Omit<DayCounts, 'date'>;

/** The analytics read (docs/api.md, Analytics). */
export interface VisitorAnalytics {
  success: true;
  from: string;
  to: string;
  totals: Totals;
  days: DayCounts[];
  topChoices: Array<{
    blockId: string;
    blockName: string | null;
    choiceId: string;
    label: string | null;
    count: number;
  }>;
  conversion: number | null;
}

function sum(days: readonly DayCounts[]): Totals {
  const totals: Totals = {
    views: 0,
    sessions: 0,
    optionChanges: 0,
    submissions: 0,
    animations: 0,
    arOpens: 0,
    saves: 0,
    cartAdds: 0,
  };
  for (const day of days) for (const key of Object.keys(totals) as Array<keyof Totals>) totals[key] += day[key];
  return totals;
}

/**
 * Visitor analytics read from the day counters only, never raw events, so its cost follows the days
 * asked for, not the traffic.
 */
export function createVisitorAnalyticsService(deps: Pick<ServiceDeps, 'db'>) {
  const shares = createShareRepository(deps.db);
  const projects = createProjectRepository(deps.db);
  const counters = createVisitorCounterRepository(deps.db);
  const scenes = new LRUCache<string, { scene: Scene; size: number }>({
    maxSize: SCENES_BYTES,
    maxEntrySize: SCENES_BYTES / 16,
    sizeCalculation: (entry) => entry.size,
  });

  async function currentScene(workspaceId: string, projectId: string, revision: number): Promise<Scene | null> {
    const kept = scenes.get(`${projectId}|${revision}`);
    if (kept) return kept.scene;
    const stored = await shares.scene(workspaceId, projectId);
    if (!stored) return null;
    const { scene } = parseScene(decompressScene(stored.scene));
    const size = Math.max(1, JSON.stringify(scene.optionBlocks).length);
    scenes.set(`${projectId}|${stored.revision}`, { scene, size });
    return scene;
  }

  return {
    /** `query` as the route received it (analytics-query.ts checks it); 404 for a project outside the workspace. */
    async read(
      workspaceId: string,
      projectId: string,
      query: { from?: string; to?: string; top?: string },
      now: Date = new Date(),
    ): Promise<VisitorAnalytics> {
      const { from, to, top: limit } = analyticsQuery(query, now);
      // One round trip for all three; another workspace's counters are read but never answered.
      const [revision, days, top] = await Promise.all([
        projects.revision(workspaceId, projectId),
        counters.readDays(projectId, from, to),
        counters.readTopChoices(projectId, monthSpans({ from, to }), limit),
      ]);
      if (revision === null) throw notFound('Project');
      const scene = top.length > 0 ? await currentScene(workspaceId, projectId, revision) : null;
      const topChoices = top.map(({ blockId, choiceId, count }) => {
        const block = scene?.optionBlocks.find((b) => b.id === blockId);
        const choice = block?.choices.find((c) => c.id === choiceId);
        return { blockId, blockName: block?.name ?? null, choiceId, label: choice?.label ?? null, count };
      });
      const totals = sum(days);
      const conversion =
        totals.sessions > 0 ? Math.round((totals.submissions / totals.sessions) * 10_000) / 10_000 : null;
      return { success: true, from, to, totals, days, topChoices, conversion };
    },
  };
}
