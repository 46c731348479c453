// webfetch (agent-webfetch-official): a URL gives the page's main content as markdown
// (Readability, then turndown); `metadata <URL>` gives its title, description, canonical URL,
// language, Open Graph and Twitter card fields. Safe by default: http(s) only, every hop's address
// checked (no loopback, private, link-local or metadata addresses unless the operator allows
// them) and pinned, redirects re-checked, and size, time and content-type limits.
import { defineAgent } from '../kit/index.js';
import { pageContent } from './markdown.js';
import { pageMetadata } from './metadata.js';
import { Mode, parseFetchRequest } from './parse.js';
import { contentData, metadataData, renderContent, renderMetadata } from './render.js';
import { fetchPage } from './safe-fetch.js';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export default defineAgent({
  id: 'agent-webfetch-official',
  alias: 'webfetch',
  category: 'utilities',
  tags: ['webfetch', 'fetch', 'web page', 'markdown', 'metadata', 'open graph'],
  card: {
    name: 'Webfetch',
    description:
      'Reads a web page: its main content as markdown, or its metadata (title, description, ' +
      'canonical URL, language, Open Graph). Public http(s) pages only, with size and time limits.',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'content',
        name: 'Page as markdown',
        description:
          'Fetches a page and returns its main content (navigation and footers left out) as ' +
          'markdown; text pages come back as they are.',
        tags: ['fetch', 'markdown', 'readability'],
        examples: ['https://example.com/blog/post', '{"url": "https://example.com/docs"}'],
      },
      {
        id: 'metadata',
        name: 'Page metadata',
        description:
          'Title, description, canonical URL, language, Open Graph fields and Twitter card ' +
          'basics of a page.',
        tags: ['metadata', 'open graph', 'seo'],
        examples: [
          'metadata https://example.com/',
          '{"url": "https://example.com/", "mode": "metadata"}',
        ],
      },
    ],
  },
  async handle(req, ctx) {
    const { mode, url } = parseFetchRequest(req.text, req.json);
    const page = await fetchPage(url, ctx.config.webfetch, ctx.signal);
    const html = HTML_TYPES.has(page.contentType);
    if (mode === Mode.metadata) {
      const meta = html
        ? pageMetadata(page.body, page.finalUrl, page.contentLanguage)
        : {
            title: undefined,
            description: undefined,
            canonicalUrl: undefined,
            language: page.contentLanguage,
            openGraph: {},
            twitter: {},
          };
      const data = metadataData(page, meta);
      return { text: renderMetadata(data), data };
    }
    const data = contentData(page, html ? pageContent(page.body, page.finalUrl) : undefined);
    return { text: renderContent(data), data };
  },
});
