import { describe, expect, it } from 'vitest';
import {
  embedOriginOf,
  frameAncestors,
  isEmbedAllowed,
  parseHostRule,
  parseHostRules,
} from '#core/domain/embed-hosts.js';

describe('parseHostRule', () => {
  it('lower-cases host names and keeps wildcards and ports', () => {
    expect(parseHostRule('Shop.Example.COM')).toBe('shop.example.com');
    expect(parseHostRule(' *.Example.com ')).toBe('*.example.com');
    expect(parseHostRule('localhost:8080')).toBe('localhost:8080');
    expect(parseHostRule('*.example.com:8443')).toBe('*.example.com:8443');
    expect(parseHostRule('127.0.0.1:3000')).toBe('127.0.0.1:3000');
  });

  it('stores internationalised names as browsers send them (punycode)', () => {
    expect(parseHostRule('Bücher.de')).toBe('xn--bcher-kva.de');
  });

  it('refuses what is not a host rule', () => {
    for (const bad of [
      '',
      'https://example.com',
      'example.com/path',
      '*.com',
      '*',
      'exa mple.com',
      '-bad.com',
      'a..b',
      'example.com:0',
      'example.com:70000',
      'ex*ample.com',
      'shop.*.com',
      'user@example.com',
      'a_b.com',
    ]) {
      expect(parseHostRule(bad), bad).toBeNull();
    }
  });

  it('refuses wildcards over a public suffix, and keeps those over a registrable name', () => {
    for (const bad of ['*.co.uk', '*.github.io', '*.com.au']) expect(parseHostRule(bad), bad).toBeNull();
    for (const good of ['*.example.co.uk', '*.me.github.io', '*.shop.internal'])
      expect(parseHostRule(good), good).toBe(good);
    // A plain host on a public suffix is a host like any other.
    expect(parseHostRule('co.uk')).toBe('co.uk');
  });

  it('reports the positions of invalid entries and removes duplicates', () => {
    expect(parseHostRules(['a.com', 'bad/one', 'A.com', '*.b.com', 'https://c.com'])).toEqual({
      rules: ['a.com', '*.b.com'],
      invalid: [1, 4],
    });
  });
});

describe('embedOriginOf', () => {
  it('takes the Origin, else the Referer, with the effective port', () => {
    expect(embedOriginOf('https://Shop.example.com', 'https://other.test/x')).toEqual({
      host: 'shop.example.com',
      port: 443,
    });
    expect(embedOriginOf(undefined, 'http://shop.example.com:8080/page?q=1')).toEqual({
      host: 'shop.example.com',
      port: 8080,
    });
    expect(embedOriginOf(undefined, 'http://shop.example.com/')).toEqual({ host: 'shop.example.com', port: 80 });
  });

  it('tells a headless request (no header) from an opaque origin', () => {
    expect(embedOriginOf(undefined, undefined)).toBeUndefined();
    expect(embedOriginOf('null', undefined)).toBeNull();
    expect(embedOriginOf(undefined, 'not a url')).toBeNull();
  });
});

describe('isEmbedAllowed', () => {
  const rules = ['shop.example.com', '*.brand.test', 'localhost:8080'];
  const at = (origin: string) => embedOriginOf(origin, undefined);

  it('matches exact hosts on any port when the rule has none', () => {
    expect(isEmbedAllowed(rules, at('https://shop.example.com'))).toBe(true);
    expect(isEmbedAllowed(rules, at('http://shop.example.com:3000'))).toBe(true);
    expect(isEmbedAllowed(rules, at('https://www.shop.example.com'))).toBe(false);
    expect(isEmbedAllowed(rules, at('https://evilshop.example.com'))).toBe(false);
  });

  it('matches sub-domains of a wildcard at any depth, not the apex or look-alikes', () => {
    expect(isEmbedAllowed(rules, at('https://eu.brand.test'))).toBe(true);
    expect(isEmbedAllowed(rules, at('https://a.b.brand.test'))).toBe(true);
    expect(isEmbedAllowed(rules, at('https://brand.test'))).toBe(false);
    expect(isEmbedAllowed(rules, at('https://evilbrand.test'))).toBe(false);
  });

  it('matches a port rule only on that port', () => {
    expect(isEmbedAllowed(rules, at('http://localhost:8080'))).toBe(true);
    expect(isEmbedAllowed(rules, at('http://localhost:3000'))).toBe(false);
    expect(isEmbedAllowed(['example.com:443'], at('https://example.com'))).toBe(true);
  });

  it('allows everything with an empty list, headless requests always, opaque origins never', () => {
    expect(isEmbedAllowed([], at('https://anywhere.test'))).toBe(true);
    expect(isEmbedAllowed([], null)).toBe(true);
    expect(isEmbedAllowed(rules, undefined)).toBe(true);
    expect(isEmbedAllowed(rules, null)).toBe(false);
  });
});

describe('frameAncestors', () => {
  it('lists the allowed hosts, any port unless one is given, and * for an empty list', () => {
    expect(frameAncestors([])).toBe('frame-ancestors *');
    expect(frameAncestors(['shop.example.com', '*.brand.test', 'localhost:8080'])).toBe(
      'frame-ancestors shop.example.com:* *.brand.test:* localhost:8080',
    );
  });
});
