import { domainToASCII } from 'node:url';
import { getPublicSuffix } from 'tldts';

/**
 * Embed host rules (docs/api.md, Share settings): `*.example.com` matches sub-domains, not the apex; no port
 * matches any port. Names are stored lower-cased and in punycode, as browsers send them.
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const RULE = /^(\*\.)?([^:*]+)(?::([0-9]{1,5}))?$/;

export interface HostRule {
  wildcard: boolean;
  host: string;
  /** null: any port. */
  port: number | null;
}

function toRule(stored: string): HostRule | null {
  const match = RULE.exec(stored);
  if (!match) return null;
  const [, star, host, port] = match;
  return { wildcard: Boolean(star), host, port: port === undefined ? null : Number(port) };
}

/** The stored form of a rule (`*.example.com:8443`), or null when it is not a host rule. */
export function parseHostRule(input: string): string | null {
  const match = RULE.exec(input.trim().toLowerCase());
  if (!match) return null;
  const [, star, rawHost, rawPort] = match;
  // domainToASCII would quietly cut `shop.com/path` down to `shop.com`: refuse URL syntax first.
  if (!/^[\p{L}\p{N}\p{M}.-]+$/u.test(rawHost)) return null;
  const host = domainToASCII(rawHost);
  if (!host || host.length > 253) return null;
  const labels = host.split('.');
  if (!labels.every((label) => LABEL.test(label))) return null;
  // `*.com`, `*.co.uk` or `*.github.io` would allow everybody under a public suffix (the Public
  // Suffix List, private registries included): a wildcard needs a registrable name.
  if (star && (labels.length < 2 || getPublicSuffix(host, { allowPrivateDomains: true }) === host)) return null;
  if (rawPort !== undefined) {
    const port = Number(rawPort);
    if (port < 1 || port > 65535) return null;
    return `${star ?? ''}${host}:${port}`;
  }
  return `${star ?? ''}${host}`;
}

export interface ParsedHostRules {
  /** Normalised, de-duplicated, in the order given. */
  rules: string[];
  /** Positions (in the input) of the entries that are not host rules. */
  invalid: number[];
}

export function parseHostRules(inputs: readonly string[]): ParsedHostRules {
  const rules: string[] = [];
  const invalid: number[] = [];
  inputs.forEach((input, index) => {
    const rule = parseHostRule(input);
    if (rule === null) invalid.push(index);
    else if (!rules.includes(rule)) rules.push(rule);
  });
  return { rules, invalid };
}

/** The host and effective port a browser embed comes from. */
export interface EmbedOrigin {
  host: string;
  port: number;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

function originOf(value: string): EmbedOrigin | null {
  try {
    const url = new URL(value);
    const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol];
    if (!url.hostname || port === undefined) return null;
    return { host: url.hostname.toLowerCase(), port };
  } catch {
    return null;
  }
}

/**
 * Where a request embeds the share from: Origin, else Referer. undefined when neither is sent (headless
 * clients are allowed); null when present but naming no host (`Origin: null`), which no rule allows.
 */
export function embedOriginOf(origin: string | undefined, referer: string | undefined): EmbedOrigin | null | undefined {
  if (origin !== undefined && origin !== '') return originOf(origin);
  if (referer !== undefined && referer !== '') return originOf(referer);
  return undefined;
}

/** Whether a stored rule admits the embed origin. */
function ruleMatches(rule: string, embed: EmbedOrigin): boolean {
  const parsed = toRule(rule);
  if (!parsed) return false;
  const { wildcard, host, port } = parsed;
  if (port !== null && port !== embed.port) return false;
  return wildcard ? embed.host.endsWith(`.${host}`) : embed.host === host;
}

/**
 * The embed check (docs/api.md, Public read): an empty list admits every host, a request without
 * Origin and Referer is admitted (headless), anything else needs a matching rule.
 */
export function isEmbedAllowed(rules: readonly string[], embed: EmbedOrigin | null | undefined): boolean {
  if (rules.length === 0 || embed === undefined) return true;
  if (embed === null) return false;
  return rules.some((rule) => ruleMatches(rule, embed));
}

/**
 * The `Content-Security-Policy` value that lets only the allowed hosts frame the share
 * (docs/share-page.md): `*` for an empty list; a rule without a port becomes `host:*`.
 */
export function frameAncestors(rules: readonly string[]): string {
  if (rules.length === 0) return 'frame-ancestors *';
  return `frame-ancestors ${rules.map((rule) => (toRule(rule)?.port === null ? `${rule}:*` : rule)).join(' ')}`;
}
