// Text made safe inside HTML output (the one escaping of the kit; lib/display re-exports it).

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
