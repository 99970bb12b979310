// SSRF range checks on literal addresses and the guard's resolution rules (a fake resolver: no traffic).
import { describe, expect, it } from 'vitest';
import { BlockedTargetError, checkAddress, createTargetGuard } from './guard';

describe('checkAddress (production setting: private targets refused)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local'],
    ['fd00:ec2::254', 'unique local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    // IPv4-mapped IPv6 forms are checked as the IPv4 address they carry.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:7f00:1', 'loopback'],
    // Forms that embed an IPv4 address some gateways would translate are refused whole.
    ['64:ff9b::7f00:1', 'NAT64'],
    ['2002:7f00:1::', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ])('refuses %s (%s)', (address, label) => {
    const verdict = checkAddress(address, false);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed)
      expect(verdict.reason).toBe(
        `${label}${label === 'unique local' ? ' (IPv6 ULA)' : ''} addresses are not allowed`,
      );
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    'allows the public address %s',
    (address) => {
      expect(checkAddress(address, false)).toEqual({ allowed: true });
    },
  );

  it('refuses what is not an address', () => {
    expect(checkAddress('localhost', false).allowed).toBe(false);
    expect(checkAddress('1.2.3', false).allowed).toBe(false);
  });

  it('allows private targets only when the flag is on (local mode)', () => {
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '169.254.169.254']) {
      expect(checkAddress(address, true)).toEqual({ allowed: true });
    }
  });
});

describe('createTargetGuard', () => {
  const resolver = (answers: Record<string, string[]>) => async (host: string) => {
    const list = answers[host];
    if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it('refuses a name when any of its addresses is private, naming the address', async () => {
    const guard = createTargetGuard({
      allowPrivateTargets: false,
      resolver: resolver({ 'mixed.example': ['93.184.216.34', '10.0.0.7'] }),
    });
    const error = await guard.resolve('mixed.example').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockedTargetError);
    expect((error as Error).message).toBe(
      'Blocked request to mixed.example (10.0.0.7): private addresses are not allowed',
    );
  });

  it('words a literal loopback target as the analysis shows it', async () => {
    const guard = createTargetGuard({ allowPrivateTargets: false });
    await expect(guard.resolve('127.0.0.1')).rejects.toThrow(
      'Blocked request to 127.0.0.1: loopback addresses are not allowed',
    );
    await expect(guard.resolve('[::1]')).rejects.toThrow(
      'Blocked request to ::1: loopback addresses are not allowed',
    );
  });

  it('returns the checked addresses (IPv4 first) and keeps them: a changed DNS answer is not used', async () => {
    const answers: Record<string, string[]> = { 'site.example': ['2606:4700::1', '93.184.216.34'] };
    const guard = createTargetGuard({ allowPrivateTargets: false, resolver: resolver(answers) });
    expect((await guard.resolve('site.example')).map((a) => a.address)).toEqual([
      '93.184.216.34',
      '2606:4700::1',
    ]);
    // Rebinding: the name now points inside. The guard connects to what it checked, never to this.
    answers['site.example'] = ['127.0.0.1'];
    expect((await guard.resolve('site.example')).map((a) => a.address)).toEqual([
      '93.184.216.34',
      '2606:4700::1',
    ]);
    // A fresh guard (new crawl) checks the new answer and refuses it.
    const fresh = createTargetGuard({ allowPrivateTargets: false, resolver: resolver(answers) });
    await expect(fresh.resolve('site.example')).rejects.toThrow('loopback addresses are not allowed');
  });

  it('reports names that do not resolve', async () => {
    const guard = createTargetGuard({ allowPrivateTargets: false, resolver: resolver({}) });
    await expect(guard.resolve('nowhere.example')).rejects.toThrow(
      'the name could not be resolved (ENOTFOUND)',
    );
  });

  it.each([
    'file:///etc/passwd',
    'ftp://example.com/',
    'data:text/html,x',
    'chrome://settings',
    'javascript:alert(1)',
  ])('never fetches %s', (url) => {
    const guard = createTargetGuard({ allowPrivateTargets: true });
    expect(() => guard.checkScheme(new URL(url))).toThrow('only http and https URLs are crawled');
  });
});
