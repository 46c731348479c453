import { describe, expect, it } from 'vitest';
import { pageContent, toMarkdown } from './markdown.js';

const para = (s: string) => `<p>${s.repeat(4)}</p>`;

const PAGE = `<!doctype html><html lang="fr"><head><title>Le terrier | Site</title></head><body>
<nav><a href="/">Accueil</a> <a href="/contact">Contact us today</a></nav>
<aside>Sponsored: buy shovels</aside>
<article><h1>Le terrier</h1>
${para('Les lapins creusent des terriers profonds avec plusieurs sorties de secours. ')}
<h2>Les galeries</h2>
${para('Les galeries relient les chambres, et <a href="../chambres">les chambres</a> restent au sec. ')}
<pre><code>dig --deep</code></pre>
<img src="img/lapin.png" alt="Un lapin">
</article>
<footer>Mentions légales • Footer links</footer></body></html>`;

describe('pageContent', () => {
  it('keeps the article as markdown, with absolute links, and drops the chrome', () => {
    const c = pageContent(PAGE, 'https://site.example/blog/post');
    expect(c.article).toBe(true);
    expect(c.lang).toBe('fr');
    expect(c.title).toMatch(/Le terrier/);
    expect(c.markdown).toContain('## Les galeries');
    expect(c.markdown).toContain('[les chambres](https://site.example/chambres)');
    expect(c.markdown).toContain('![Un lapin](https://site.example/blog/img/lapin.png)');
    expect(c.markdown).toContain('```\ndig --deep\n```');
    for (const chrome of ['Contact us today', 'buy shovels', 'Mentions légales']) {
      expect(c.markdown).not.toContain(chrome);
    }
  });

  it('converts the whole body, minus chrome and scripts, when there is no article', () => {
    const c = pageContent(
      '<html><head><title>Tiny</title></head><body><nav>Menu</nav><script>x()</script>' +
        '<p>Just a <b>short</b> note.</p><footer>Foot</footer></body></html>',
      'https://e.com/'
    );
    expect(c.article).toBe(false);
    expect(c.title).toBe('Tiny');
    expect(c.markdown).toBe('Just a **short** note.');
  });
});

describe('toMarkdown', () => {
  it('writes headings, lists, emphasis and code the common way', () => {
    expect(
      toMarkdown('<h3>T</h3><ul><li>a</li></ul><p><em>e</em> <code>c</code></p><style>x{}</style>')
    ).toBe('### T\n\n-   a\n\n_e_ `c`');
  });
});
