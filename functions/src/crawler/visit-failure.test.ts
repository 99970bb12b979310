import { describe, expect, it } from 'vitest';
import { describeFailure, describeNetError } from './visit-failure';

const url = 'https://shop.example:8443/cart';
const context = { crashed: false, navigationTimeoutMs: 20_000 };

describe('describeFailure', () => {
  it("names the proxy's refusal of the host first (with or without its port), and marks it refused", () => {
    const blocked = new Map([['shop.example', 'shop.example resolves to a private address: not crawled']]);
    expect(
      describeFailure(url, new Error('net::ERR_TUNNEL_CONNECTION_FAILED'), { ...context, blocked }),
    ).toEqual({
      error: 'shop.example resolves to a private address: not crawled',
      refused: true,
    });
  });

  it('says why the proxy could not reach the host', () => {
    const unreachable = new Map([['shop.example:8443', 'connection refused']]);
    expect(describeFailure(url, new Error('net::ERR_EMPTY_RESPONSE'), { ...context, unreachable })).toEqual({
      error: `connection refused at ${url}`,
    });
  });

  it('makes a timeout worth a second try, naming the time limit', () => {
    const error = `${url}: timed out after 20000 ms`;
    expect(describeFailure(url, new Error('Navigation timeout of 40000 ms exceeded'), context)).toEqual({
      error,
      incomplete: error,
    });
  });

  it('gives a crashed or closed tab up', () => {
    const broken = { error: `${url}: the page crashed`, tabBroken: true };
    expect(describeFailure(url, new Error('Target closed'), context)).toEqual(broken);
    expect(describeFailure(url, new Error('net::ERR_ABORTED'), { ...context, crashed: true })).toEqual(
      broken,
    );
  });

  it("puts Chromium's network errors in words, and anything else as its first line", () => {
    expect(
      describeFailure(url, new Error('net::ERR_NAME_NOT_RESOLVED at https://shop.example'), context),
    ).toEqual({
      error: `host not found at ${url}`,
    });
    expect(describeFailure(url, new Error('net::ERR_SOMETHING_NEW'), context)).toEqual({
      error: `${url}: net::ERR_SOMETHING_NEW`,
    });
    expect(describeFailure(url, 'odd failure\nwith a stack', context)).toEqual({
      error: `${url}: odd failure`,
    });
  });
});

describe('describeNetError', () => {
  it('words the codes a site owner recognises', () => {
    expect(describeNetError('net::ERR_CERT_DATE_INVALID', url)).toBe(
      `expired or not yet valid TLS certificate at ${url}`,
    );
  });
});
