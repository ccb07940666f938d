// CSV as spreadsheets read it: RFC 4180 quoting, CRLF line ends, a byte-order mark so Excel reads
// UTF-8, and a cell that a spreadsheet would take for a formula (=, +, -, @, a tab or a return
// first) written with a leading apostrophe, so opening an export runs nothing.

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** A file name from a list's title: letters, digits, spaces, dashes; never empty. */
export function csvFileName(title: string, day: string): string {
  const base =
    title
      .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
      .trim()
      .replace(/\s+/g, ' ') || 'tasks';
  return `${base} ${day}.csv`;
}
