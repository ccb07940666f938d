// Markdown from the service as HTML: a project document's in the reader, a message's in a
// task's thread (a list's one-line preview of it is plain text, lib/message-preview.ts). The
// text comes from the service, so it may never add markup of its own: raw HTML is escaped
// (`html: false`), and only https links are made (the Electron shell sends an https link opened
// in a new window to the system browser and drops every other scheme, so a mailto:, http: or
// javascript: link would be dead or worse).
import MarkdownIt from 'markdown-it';

/** A parser with the rules above; `breaks` keeps a message's single line breaks as typed. */
function safeMarkdown(options: { breaks: boolean }): MarkdownIt {
  const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: options.breaks });

  /** A link stays a link only for an absolute https address; other text stays text. */
  markdown.validateLink = (url: string): boolean => /^https:\/\/[^\s/]/i.test(url.trim());

  // The app's CSP loads no image from elsewhere (and a remote image would tell its server who
  // read the text): an image reads as a link to it instead.
  markdown.disable('image');

  // Bare addresses ("example.com", "someone@example.com") would become http: and mailto: links.
  markdown.linkify.set({ fuzzyLink: false, fuzzyEmail: false });

  // Every link opens in a new window, never in the app's own: `target` makes the shell's
  // window-open handler see it, and `rel` keeps the new page from reaching back to the app.
  markdown.renderer.rules['link_open'] = (tokens, index, opts, _env, self) => {
    const token = tokens[index];
    if (token) {
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer');
    }
    return self.renderToken(tokens, index, opts);
  };
  return markdown;
}

const documents = safeMarkdown({ breaks: false });
// A message is written as chat is: a new line is a new line, and "# 1" is not a heading.
const messages = safeMarkdown({ breaks: true }).disable(['heading', 'lheading', 'table']);

/** The HTML of a document's Markdown; safe to insert (see above). */
export function renderMarkdown(text: string): string {
  return documents.render(text);
}

/** The HTML of a message's Markdown (bold, lists, links, code; line breaks kept); safe to insert. */
export function renderMessage(text: string): string {
  return messages.render(text);
}
