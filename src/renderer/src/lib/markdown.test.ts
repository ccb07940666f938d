import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderMessage } from './markdown';

describe('renderMarkdown', () => {
  it('formats headings, lists, code, quotes and tables', () => {
    const html = renderMarkdown(
      '# Notes\n\n- one\n- two\n\n1. first\n\n`code` and\n\n```\nblock\n```\n\n> quoted\n\n| a | b |\n| - | - |\n| 1 | 2 |\n',
    );
    expect(html).toContain('<h1>Notes</h1>');
    expect(html).toContain('<ul>\n<li>one</li>');
    expect(html).toContain('<ol>\n<li>first</li>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<pre><code>block\n</code></pre>');
    expect(html).toContain('<blockquote>\n<p>quoted</p>');
    expect(html).toContain('<td>1</td>');
  });

  it('never lets a document add markup: raw HTML is shown as text', () => {
    const html = renderMarkdown('<img src=x onerror="alert(1)"> <script>alert(2)</script>\n\n<b>bold</b>');
    expect(html).not.toMatch(/<img|<script|<b>/);
    expect(html).toContain('&lt;script&gt;');
  });

  it('opens https links, written or bare, in a new window that cannot reach back', () => {
    expect(renderMarkdown('[spec](https://example.com/spec)')).toContain(
      '<a href="https://example.com/spec" target="_blank" rel="noopener noreferrer">spec</a>',
    );
    expect(renderMarkdown('see https://example.com/a now')).toContain(
      '<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">https://example.com/a</a>',
    );
  });

  it('makes no link the app could not open safely, and loads no image', () => {
    for (const text of [
      '[x](javascript:alert(1))',
      '[x](http://example.com/)',
      '[x](mailto:a@example.com)',
      '[x](file:///etc/passwd)',
      'example.com and a@example.com',
    ]) {
      expect(renderMarkdown(text)).not.toContain('<a ');
    }
    const image = renderMarkdown('![diagram](https://example.com/d.png)');
    expect(image).not.toContain('<img');
    expect(image).toContain('<a href="https://example.com/d.png"');
  });
});

describe('renderMessage', () => {
  it('formats what people type in a message: bold, lists, links, code, line breaks', () => {
    const html = renderMessage(
      'Please **check** this:\n- the `login` page\n- the [spec](https://example.com/s)\nthanks\nAda',
    );
    expect(html).toContain('<strong>check</strong>');
    expect(html).toContain('<li>the <code>login</code> page</li>');
    expect(html).toContain(
      '<a href="https://example.com/s" target="_blank" rel="noopener noreferrer">spec</a>',
    );
    expect(html).toContain('thanks<br>\nAda');
  });

  it('is as safe as a document: no raw HTML, no unsafe link, no image; "# 1" stays text', () => {
    const html = renderMessage('<script>x()</script> [a](javascript:x()) ![i](https://e.com/i.png)\n# 1');
    expect(html).not.toMatch(/<script|<img|href="javascript/);
    expect(html).toContain('# 1');
    expect(html).not.toContain('<h1>');
  });
});
