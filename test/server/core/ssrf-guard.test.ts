import { describe, expect, it } from 'vitest';
import {
  SsrfError,
  addressRange,
  isPublicAddress,
  resolvePublicAddress,
  type LookupAll,
} from '#core/platform/ssrf-guard.js';

/** The SSRF guard: which addresses pass, that every resolved address counts, and its typed errors. */

const answers =
  (...addresses: string[]): LookupAll =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function refusal(host: string, options: Parameters<typeof resolvePublicAddress>[1] = {}): Promise<SsrfError> {
  const error = await resolvePublicAddress(host, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SsrfError);
  return error as SsrfError;
}

describe('isPublicAddress', () => {
  it('passes globally routable unicast addresses', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
  });

  it('refuses loopback, private, link-local, unique-local, CGNAT, multicast, unspecified, reserved, mapped', () => {
    const refused: Record<string, string> = {
      '127.0.0.1': 'loopback',
      '127.255.0.9': 'loopback',
      '10.1.2.3': 'private',
      '172.16.0.1': 'private',
      '172.31.255.255': 'private',
      '192.168.1.1': 'private',
      '169.254.169.254': 'linkLocal',
      '100.64.0.1': 'carrierGradeNat',
      '0.0.0.0': 'unspecified',
      '224.0.0.1': 'multicast',
      '255.255.255.255': 'broadcast',
      '192.0.2.10': 'reserved',
      '198.18.0.1': 'reserved',
      '240.0.0.1': 'reserved',
      '::1': 'loopback',
      '::': 'unspecified',
      'fe80::1': 'linkLocal',
      'fd00::1': 'uniqueLocal',
      'fc12:3456::1': 'uniqueLocal',
      'ff02::1': 'multicast',
      '2001:db8::1': 'reserved',
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:10.0.0.1': 'private',
      '::ffff:169.254.169.254': 'linkLocal',
      '64:ff9b::a00:1': 'rfc6052',
      '2002:a00:1::1': '6to4',
      '::7f00:1': 'reserved',
    };
    for (const [ip, range] of Object.entries(refused)) {
      expect(isPublicAddress(ip), ip).toBe(false);
      expect(addressRange(ip), ip).toBe(range);
    }
    expect(addressRange('not-an-ip')).toBeNull();
  });
});

describe('resolvePublicAddress', () => {
  it('returns the address to connect to when every address is public', async () => {
    expect(
      await resolvePublicAddress('mail.example.com', { lookup: answers('93.184.216.34', '2606:2800:220:1::1') }),
    ).toEqual({ address: '93.184.216.34', family: 4 });
    expect(await resolvePublicAddress('8.8.4.4')).toEqual({ address: '8.8.4.4', family: 4 });
    expect(await resolvePublicAddress('[2606:4700::1111]')).toEqual({ address: '2606:4700::1111', family: 6 });
  });

  it('refuses a name when any of its addresses is private, and private literals in any spelling', async () => {
    const mixed = await refusal('rebind.example', { lookup: answers('93.184.216.34', '10.0.0.5') });
    expect(mixed).toMatchObject({
      code: 'ssrf_blocked',
      host: 'rebind.example',
      address: '10.0.0.5',
      range: 'private',
    });
    expect(mixed.message).not.toContain('10.0.0.5');
    for (const host of [
      '127.0.0.1',
      '169.254.169.254',
      '10.0.0.1',
      '[::1]',
      '::ffff:192.168.0.1',
      '127.1',
      '0x7f000001',
      '2130706433',
      '0.0.0.0',
    ]) {
      expect(await refusal(host), host).toMatchObject({ code: 'ssrf_blocked' });
    }
  });

  it('refuses localhost through the system resolver', async () => {
    expect(await refusal('localhost')).toMatchObject({ code: 'ssrf_blocked', range: 'loopback' });
  });

  it('lets private addresses through with allowPrivate', async () => {
    expect(await resolvePublicAddress('127.0.0.1', { allowPrivate: true })).toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    expect(await resolvePublicAddress('db.internal', { allowPrivate: true, lookup: answers('10.0.0.7') })).toEqual({
      address: '10.0.0.7',
      family: 4,
    });
  });

  it('answers dns for a name that does not resolve, resolves to nothing, or takes too long', async () => {
    const notFound: LookupAll = async () =>
      Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nope.invalid'), { code: 'ENOTFOUND' }));
    expect(await refusal('nope.invalid', { lookup: notFound })).toMatchObject({
      code: 'dns',
      message: 'nope.invalid could not be resolved.',
    });
    expect(await refusal('empty.example', { lookup: answers() })).toMatchObject({ code: 'dns' });
    const hangs: LookupAll = () => new Promise(() => {});
    expect(await refusal('slow.example', { lookup: hangs, timeoutMs: 20 })).toMatchObject({ code: 'dns' });
    expect(await refusal('  ')).toMatchObject({ code: 'dns' });
  });
});
