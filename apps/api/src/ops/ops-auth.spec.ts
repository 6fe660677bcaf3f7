import { handOffLocation } from './ops-auth';

/**
 * The operator `?token=` hand-off (issue 35): its 303 goes to the requested page without the
 * token, resolved and then checked as the sign-in's return_to is, and never leaves the
 * page's mount point; the class of the fixed return_to bug (`/%2e%2e//evil.example`).
 */
describe('handOffLocation (the ?token= hand-off never redirects off-site)', () => {
  const MOUNTS = ['/admin/queues', '/admin/docs'];
  /** Every spelling of a dot segment a URL parser or a router might honour, and near misses. */
  const DOTS = [
    '..',
    '.',
    '%2e%2e',
    '%2E%2E',
    '%2e%2E',
    '.%2e',
    '%2e.',
    '%2E.',
    '%2e',
    '%252e%252e',
    '%25252e%25252e',
    '..%00',
    '..;',
    '.. ',
  ];
  const SEPARATORS = ['/', '\\', '%2f', '%2F', '%5c', '%5C', '/\\', '\\/'];
  /** Where an attacker would like the browser to go. */
  const TARGETS = [
    '//evil.example',
    '//evil.example/admin/queues',
    '/\\evil.example',
    '\\\\evil.example',
    '\\/evil.example',
    '/%09/evil.example',
    '/%2f/evil.example',
    '///evil.example',
    '//evil.example%2f%2e%2e',
    '/https://evil.example',
    '/http:evil.example',
    '//evil.example:443',
    '//user@evil.example',
  ];
  const QUERIES = ['?token=t0k3n', '?x=1&token=t0k3n', '?token=t0k3n#frag'];

  const cases: Array<[string, string]> = [];
  for (const mount of MOUNTS)
    for (const dot of DOTS)
      for (const sep of SEPARATORS)
        for (const depth of [1, 3])
          for (const target of TARGETS)
            cases.push([
              mount,
              `${mount}${sep}${`${dot}${sep}`.repeat(depth)}${target}${QUERIES[depth % 3]}`,
            ]);
  for (const mount of MOUNTS)
    for (const target of TARGETS)
      for (const query of QUERIES) {
        cases.push([mount, `${mount}${target}${query}`]);
        cases.push([mount, `${mount}/${target}${query}`]);
        cases.push([mount.toUpperCase(), `${mount.toUpperCase()}/..${target}${query}`]);
        cases.push([mount, `http://evil.example${mount}/..${target}${query}`]);
      }

  it("covers the probe's shape: thousands of hostile hand-offs", () => {
    expect(cases.length).toBeGreaterThan(2_900);
  });

  it.each(cases)('mount %s, GET %s: a path below the mount on this origin', (mount, url) => {
    const location = handOffLocation(url, mount);
    expect(location.startsWith('/')).toBe(true);
    expect(location.startsWith('//')).toBe(false);
    expect(location).not.toMatch(/^\/\\|[\\\s]/);
    expect(location).not.toMatch(/token=/);
    // What a browser makes of it: this origin, below the mount point.
    const resolved = new URL(location, 'https://api.example');
    expect(resolved.origin).toBe('https://api.example');
    expect(resolved.host).toBe('api.example');
    expect(resolved.pathname.toLowerCase().startsWith(mount.toLowerCase())).toBe(true);
  });

  it.each([
    ['/admin/queues', '/admin/queues?token=t', '/admin/queues'],
    ['/admin/queues', '/admin/queues/?token=t', '/admin/queues/'],
    ['/admin/queues', '/admin/queues/queue/site-audit?token=t', '/admin/queues/queue/site-audit'],
    [
      '/admin/queues',
      '/admin/queues/queue/site-audit?status=failed&token=t',
      '/admin/queues/queue/site-audit?status=failed',
    ],
    [
      '/admin/queues',
      '/admin/queues/queue/x/../site-audit?token=t',
      '/admin/queues/queue/site-audit',
    ],
    ['/admin/docs', '/admin/docs?token=t&token=u', '/admin/docs'],
    ['/ADMIN/QUEUES', '/ADMIN/QUEUES?token=t', '/ADMIN/QUEUES'],
    // Resolved below the mount's parent: sent to the mount itself.
    ['/admin/queues', '/admin/queues/../docs?token=t', '/admin/queues'],
    ['/admin/queues', '/admin/queues/%2e%2e/%2e%2e/%2e%2e//evil.example?token=t', '/admin/queues'],
    [
      '/admin/queues',
      '/admin/queues/..%2f..%2f..%2f/evil.example?token=t',
      '/admin/queues/..%2f..%2f..%2f/evil.example',
    ],
    [
      '/admin/queues',
      '/admin/queues/%252e%252e//evil.example?token=t',
      '/admin/queues/%252e%252e//evil.example',
    ],
    ['/admin/queues', '/admin/queuesX?token=t', '/admin/queues'],
    // A mount that is not one (never given by Express): the site's root.
    ['', '/admin/queues?token=t', '/'],
    ['//evil.example', '/admin/queues?token=t', '/'],
    ['/admin/queues', 'http://[bad?token=t', '/admin/queues'],
  ])('mount %s, GET %s → %s', (mount, url, expected) => {
    expect(handOffLocation(url, mount)).toBe(expected);
  });
});
