// Saving a text file the app made (a CSV export): a browser download. The web host's page
// saves it where the browser puts downloads; the desktop app asks where with its save dialog,
// as Electron does for any download.

/** Offers `text` as a file named `name`. */
export function saveTextFile(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: the download reads the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
