/** The page's last-resort message: the engine or the page's script could not load. */
export function showFatal(text: string): void {
  const message = document.getElementById('message');
  if (message) {
    message.hidden = false;
    message.className = 'error';
    message.textContent = text;
  }
  document.body.dataset.status = 'error';
}
