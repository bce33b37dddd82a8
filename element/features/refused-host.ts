import type { ShareTarget } from './api.js';

/**
 * A share that refuses the page's host (403 `domain_not_allowed`) shows as not found to shoppers
 * (element/README.md, API); the page's developer gets the reason in the console, once per share and page.
 */
const warned = new Set<string>();

/** What the `config-share-error` event of type `domain_not_allowed` says. */
export const refusedHostMessage = ({ projectId }: ShareTarget) =>
  `The share of project ${projectId} does not allow this page's host "${location.host}": add it to the ` +
  `share's allowed hosts (share settings, domainRestrictions).`;

/** One console warning naming the page's host and the setting that refused it. */
export function warnRefusedHost(target: ShareTarget) {
  const key = `${target.projectId}/${target.token}`;
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(`<config-share>: ${refusedHostMessage(target)} Shoppers see "not found".`);
}
