import { isSameSite, normalizeUrl, siteKey } from './url-normalize';

describe('normalizeUrl (dedup key of the crawl)', () => {
  it.each([
    ['HTTP://Example.COM', 'http://example.com/'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:80/a', 'http://example.com/a'],
    ['http://example.com:8080/a', 'http://example.com:8080/a'],
    ['https://example.com/a#section', 'https://example.com/a'],
    ['https://example.com/a?b=2&a=1', 'https://example.com/a?a=1&b=2'],
    ['https://example.com/a?utm_source=x&utm_medium=y&id=5', 'https://example.com/a?id=5'],
    ['https://example.com/a?gclid=1&fbclid=2&msclkid=3', 'https://example.com/a'],
    [
      'https://example.com/a?PHPSESSID=abc&sid=1&jsessionid=2&page=2',
      'https://example.com/a?page=2',
    ],
    ['https://example.com/cart;jsessionid=ABC123?x=1', 'https://example.com/cart?x=1'],
    ['https://user:pw@example.com/', 'https://example.com/'],
    ['https://example.com/a/../b/./c', 'https://example.com/b/c'],
    ['https://example.com/?', 'https://example.com/'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
  ])('%s → %s', (input, out) => {
    expect(normalizeUrl(input)).toBe(out);
  });

  it('keeps repeated parameter values in order after sorting by name', () => {
    expect(normalizeUrl('https://e.com/?b=1&a=2&b=0')).toBe('https://e.com/?a=2&b=1&b=0');
  });

  it('resolves relative URLs against a base', () => {
    expect(normalizeUrl('../x?utm_campaign=1#f', 'https://e.com/a/b/c')).toBe('https://e.com/a/x');
    expect(normalizeUrl('//cdn.e.com/y', 'https://e.com/')).toBe('https://cdn.e.com/y');
    expect(normalizeUrl('?page=2', 'https://e.com/list')).toBe('https://e.com/list?page=2');
  });

  it.each([
    'javascript:alert(1)',
    'mailto:a@b.c',
    'tel:123',
    'data:text/html,x',
    'ftp://e.com/',
    '',
    '   ',
    'http://',
  ])('rejects %s', (input) => {
    expect(normalizeUrl(input, 'https://e.com/')).toBeNull();
  });
});

describe('same-site scope', () => {
  it('treats www. and the apex as one site, keeps ports apart, ignores the scheme', () => {
    expect(siteKey('https://www.Example.com/x')).toBe('example.com');
    expect(isSameSite('http://example.com/a', 'example.com')).toBe(true);
    expect(isSameSite('https://www.example.com/a', 'example.com')).toBe(true);
    expect(isSameSite('https://blog.example.com/a', 'example.com')).toBe(false);
    expect(isSameSite('https://example.com:8443/a', 'example.com')).toBe(false);
    expect(isSameSite('not a url', 'example.com')).toBe(false);
  });
});
