import { extractPage } from './html-extract';

describe('extractPage (htmlparser2, one streaming pass)', () => {
  const html = `<!DOCTYPE html><html lang="de"><head>
    <title> Hello &amp;  World </title>
    <meta name="Description" content="  A   page ">
    <meta name="viewport" content="width=device-width">
    <meta name="robots" content="NOINDEX, follow">
    <meta property="article:published_time" content="2026-01-01">
    <link rel="canonical" href="/canonical">
    <link rel="stylesheet" href="http://cdn.example/x.css">
    <base href="https://e.com/base/">
    <script>var notWords = "a b c d e f";</script>
    <style>.x { color: red }</style>
    <script type="application/ld+json">{"@graph":[{"@type":["Article","NewsArticle"],"author":{"@type":"Person"}}]}</script>
    <script type="application/ld+json">{oops</script>
  </head><body>
    <svg><title>svg title</title></svg>
    <h1>Main <b>heading</b></h1><h2>What is it?</h2><h4>Skipped</h4>
    <p>caf&eacute; au lait, it's well-known. 3.5 words</p>
    <a href="/a">A</a><a href="b" rel="nofollow ugc">B</a><a>no href</a>
    <img src="x.png"><img src="y.png" alt=""><img src="http://e.com/z.png" alt="z">
    <noscript>hidden text here</noscript>
    <template>template text</template>
  </body></html>`;
  const p = extractPage(html);

  it('reads head metadata', () => {
    expect(p.title).toBe('Hello & World');
    expect(p.metaDescription).toBe('A page');
    expect(p.hasViewport).toBe(true);
    expect(p.metaRobots).toEqual(['noindex', 'follow']);
    expect(p.lang).toBe('de');
    expect(p.canonicalHref).toBe('/canonical');
    expect(p.baseHref).toBe('https://e.com/base/');
    expect(p.hasDateMeta).toBe(true);
  });

  it('reads headings, links, images and resources', () => {
    expect(p.headings).toEqual([
      { level: 1, text: 'Main heading' },
      { level: 2, text: 'What is it?' },
      { level: 4, text: 'Skipped' },
    ]);
    expect(p.links).toEqual([
      { href: '/a', nofollow: false },
      { href: 'b', nofollow: true },
    ]);
    expect(p.images).toBe(3);
    expect(p.imagesWithoutAlt).toBe(1);
    expect(p.resources).toEqual([
      'http://cdn.example/x.css',
      'x.png',
      'y.png',
      'http://e.com/z.png',
    ]);
  });

  it('reads JSON-LD types (incl. @graph and arrays) and counts invalid blocks', () => {
    expect(p.jsonLdTypes).toEqual(['Article', 'NewsArticle', 'Person']);
    expect(p.jsonLdHasAuthor).toBe(true);
    expect(p.jsonLdInvalid).toBe(1);
  });

  it('counts visible words only (no script/style/noscript/template/svg/head text)', () => {
    // Main heading | What is it | Skipped | café au lait it's well-known 3.5 words | A B | no href
    expect(p.wordCount).toBe(2 + 3 + 1 + 7 + 2 + 2);
  });

  it('survives broken markup', () => {
    const b = extractPage(
      '<html><title>t</title></div><body><h1>x<p>unclosed <a href="/l">l</span>',
    );
    expect(b.title).toBe('t');
    expect(b.headings).toEqual([{ level: 1, text: 'x unclosed l' }]);
    expect(b.links).toEqual([{ href: '/l', nofollow: false }]);
    expect(extractPage('').title).toBeNull();
  });
});
