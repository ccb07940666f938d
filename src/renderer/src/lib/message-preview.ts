// A message's one-line preview as plain text, as mail and chat apps show one in a list: the
// Markdown its author typed without its markers (bold and italic stars, code ticks, a link's
// address, the signs of headings, lists and quotes), on one line. Plain text is all it gives:
// the caller shows it as text, so raw HTML in a message reads as the characters typed, and no
// link is made (the task's thread shows the message in full, lib/markdown.ts). It needs no
// Markdown parser, so a list of previews does not wait for one to load or to run per row.

/**
 * How much of a message is read for its preview. A row shows one line (some 150 characters), so
 * a long message's tail is never seen; reading no further keeps each row's cost small.
 */
const READ_AT_MOST = 2000;
/** How long a preview is at most: more than any row is wide (the row clips it with an ellipsis). */
const PREVIEW_AT_MOST = 500;

// Stands for a piece of text kept as it is (code, an escaped sign, an address) while the
// markers around it are removed. Private-use characters, removed from the message first.
const KEEP_START = '\uE000';
const KEEP_END = '\uE001';
const KEEP = new RegExp(`${KEEP_START}(\\d+)${KEEP_END}`, 'g');
const KEEP_SIGNS = new RegExp(`[${KEEP_START}${KEEP_END}]`, 'g');

// A backtick fence's info string holds no backtick: "```npm test``` fails" is inline code.
const FENCE = /^\s*(`{3,}(?!.*`)|~{3,})/;
// A table's row under its header: pipes, dashes, colons (`|---|:--:|`, `--- | ---`).
const TABLE_SEPARATOR = /^\s*\|?[\s:|-]*-[\s:|-]*\|[\s:|-]*$/;
const RULE = /^\s*(?:[-*_]\s*){3,}$/;
const QUOTE = /^\s*(?:>\s?)+/;
const HEADING = /^\s*#{1,6}(?:\s+|$)/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;

// A code span: a run of backticks, the code, the same run (CommonMark's rule, simplified).
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
const AUTOLINK = /<([a-z][a-z0-9+.-]{1,31}:[^\s<>]*)>/gi;
// `[text](address "title")`, `![alt](address)`: the text; the text may hold one level of
// brackets, an address one level of parentheses (as `javascript:alert(1)` does). The bounds keep
// a message of many `[` from costing more than a few ms.
const LINK =
  /!?\[((?:[^[\]]|\[[^[\]]{0,300}\]){0,300})\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REFERENCE_LINK = /!?\[([^[\]]{1,300})\]\[[^[\]]{0,300}\]/g;
const BARE_ADDRESS = /\bhttps?:\/\/[^\s<>]+/gi;
// Emphasis: a marker run, text that neither starts nor ends with a space, the same run. `_`
// marks emphasis only outside a word (`snake_case` stays as typed), `*` also within one.
const STAR_EMPHASIS = /(\*{1,3})(?=\S)([\s\S]*?\S)\1/g;
const UNDERSCORE_EMPHASIS = /(?<![\p{L}\p{N}_])(_{1,3})(?=\S)([\s\S]*?\S)\1(?![\p{L}\p{N}_])/gu;
const STRIKE = /~~(?=\S)([\s\S]*?\S)~~/g;
// The character references people type (the thread shows them decoded, as markdown-it does).
const ENTITY = /&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|(amp|lt|gt|quot|apos|nbsp));/g;
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntity(_all: string, decimal?: string, hex?: string, name?: string): string {
  if (name) return NAMED_ENTITIES[name] ?? '';
  const code = decimal ? Number(decimal) : parseInt(hex ?? '', 16);
  const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
  const sign = valid ? String.fromCodePoint(code) : '\uFFFD';
  // The private signs this module works with never come through.
  return KEEP_SIGNS.test(sign) ? '' : sign;
}

/** A table row's cells as words: its outer pipes dropped, the inner ones made spaces. */
const cellsOf = (line: string): string =>
  line.trim().replace(/^\|/, '').replace(/\|$/, '').replace(/\|/g, ' ');

/** The message's text as one line of plain text, its Markdown markers removed; '' for none. */
export function messagePreview(message: string): string {
  const kept: string[] = [];
  const keep = (text: string): string => `${KEEP_START}${kept.push(text) - 1}${KEEP_END}`;

  const lines: string[] = [];
  let inFence = false;
  let inTable = false;
  for (const line of message.slice(0, READ_AT_MOST).replace(KEEP_SIGNS, '').split(/\r?\n/)) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    // A table: its header (the line before) and its rows read as words, the separator dropped.
    if (!inFence && !inTable && TABLE_SEPARATOR.test(line) && lines.at(-1)?.includes('|')) {
      lines.push(cellsOf(lines.pop() ?? ''));
      inTable = true;
      continue;
    }
    inTable &&= line.includes('|');
    // A code block's lines are shown as written.
    if (inFence) lines.push(keep(line));
    else if (inTable) lines.push(cellsOf(line));
    else if (!RULE.test(line)) {
      lines.push(line.replace(QUOTE, '').replace(HEADING, '').replace(LIST_ITEM, ''));
    }
  }

  let text = lines
    .join('\n')
    .replace(CODE_SPAN, (_all, _ticks: string, code: string) => keep(code))
    .replace(ESCAPE, (_all, sign: string) => keep(sign))
    .replace(AUTOLINK, (_all, address: string) => keep(address))
    .replace(LINK, '$1')
    .replace(REFERENCE_LINK, '$1')
    .replace(BARE_ADDRESS, (address) => keep(address));
  // Inside out: `***a***` and `**bold *it***` lose one pair of markers a round.
  for (let round = 0; round < 3; round++) {
    const before = text;
    text = text.replace(STAR_EMPHASIS, '$2').replace(UNDERSCORE_EMPHASIS, '$2').replace(STRIKE, '$1');
    if (text === before) break;
  }
  text = text.replace(ENTITY, decodeEntity);
  // A kept piece may hold another (an escaped sign in a code block's line).
  for (let round = 0; round < 3 && text.includes(KEEP_START); round++) {
    text = text.replace(KEEP, (_all, index: string) => kept[Number(index)] ?? '');
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_AT_MOST);
}
