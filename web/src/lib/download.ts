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
  // The browser reads the Blob URL after the click, on its own time: on a busy machine that can take
  // seconds, and a revoked URL is a failed download. FileSaver.js keeps it 40 s for the same reason.
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}
