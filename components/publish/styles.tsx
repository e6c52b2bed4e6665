/** Styles of the publishing prompts and the Site card (theme variables only). */
const CSS = `
.publish-form { display: flex; flex-direction: column; gap: 12px; }
.publish-hint { margin: 0; color: var(--text-muted); font-size: 0.9rem; overflow-wrap: anywhere; }
.publish-error { margin: 0; padding: 8px 12px; border-radius: var(--radius); background: light-dark(#fdecea, #3a1714); color: var(--danger); }
.publish-post { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.publish-state { margin: 0; }
.publish-list { list-style: none; margin: 0; padding: 0; }
.publish-list li { display: grid; grid-template-columns: minmax(0, 1fr) auto; align-items: center; gap: 4px 8px; padding: 8px 0; border-block-end: 1px solid var(--border); }
.publish-list .publish-item { min-width: 0; display: flex; flex-direction: column; }
.publish-list .publish-actions { grid-column: 1 / -1; display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 4px; }
.publish-list .publish-actions:empty { display: none; }
.publish-list .publish-name { overflow-wrap: anywhere; }
.publish-list .publish-when { color: var(--text-muted); font-size: 0.85rem; }
.publish-badge { font-size: 0.75rem; padding: 2px 8px; border-radius: 999px; background: var(--accent-soft); color: var(--on-accent-soft); white-space: nowrap; }
.publish-badge[data-state="failed"] { background: light-dark(#fdecea, #3a1714); color: var(--danger); }
.publish-list .button { min-height: 32px; padding: 4px 10px; }
.publish-section-title { margin: 8px 0 0; font-size: 0.95rem; }
.publish-log { margin: 0; max-height: 50vh; overflow: auto; padding: 8px; border-radius: var(--radius); background: var(--surface-2); font-family: var(--mono); font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere; }
`;

/** The publishing styles as a style element (inline styles are allowed by our CSP). */
export function PublishStyles() {
  return <style>{CSS}</style>;
}
