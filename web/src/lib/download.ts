// Saves text as a file the browser downloads (a Blob URL on a temporary <a download>; no data: URL, which
// our own CSP would not need to allow for a download but keeps the intent obvious).
export function downloadText(filename: string, content: string, type = 'text/plain;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; the URL only needs to outlive the click.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
