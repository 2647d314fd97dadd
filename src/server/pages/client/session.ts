// Both page families open on a single-use URL and move to their session URL, so the address bar
// (and a reload) never holds the spent one.
export function moveToSessionUrl(): void {
  const main = document.querySelector('main[data-session-url]');
  const url = main?.getAttribute('data-session-url');
  if (!url) return;
  try {
    history.replaceState(null, '', url);
  } catch {
    // A sandboxed frame may refuse; the page works the same.
  }
}
