/** Styles of the share dialog, the share management table and the public share page (theme variables only). */
const CSS = `
.share-links { list-style: none; margin: 0; padding: 0; }
.share-links li { display: flex; align-items: center; gap: 8px; padding: 6px 0; border-block-end: 1px solid var(--border); }
.share-links .share-link-text { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 2px; }
.share-name { display: inline-flex; align-items: center; gap: 6px; min-width: 0; }
.share-name a { overflow-wrap: anywhere; font-family: var(--mono); font-size: 0.9rem; }
.share-lock { display: inline-flex; color: var(--text-muted); }
.share-dates { display: flex; flex-wrap: wrap; gap: 0 12px; font-size: 0.85rem; }
.share-form { display: flex; flex-direction: column; gap: 12px; }
.share-duration { display: grid; grid-template-columns: 1fr 140px; gap: 8px; }
.share-check { display: flex; align-items: center; gap: 8px; }
.share-error { color: var(--danger); margin: 0; }
.share-hint { color: var(--text-muted); font-size: 0.875em; margin: 0.25rem 0 0; }
.share-drop { flex: 0 1 560px; padding: 16px; display: flex; flex-direction: column; gap: 8px; }
.share-drop-title { margin: 0; font-size: 1.1rem; overflow-wrap: anywhere; }
.share-drop-area { display: flex; flex-direction: column; align-items: center; gap: 12px; padding: 32px 16px;
  border: 2px dashed var(--border); border-radius: 8px; text-align: center; cursor: pointer; }
.share-drop-area.over { border-color: var(--accent); }
.share-drop-items { list-style: none; margin: 0; padding: 0; overflow-wrap: anywhere; }
.share-drop-items li { padding: 4px 0; border-block-end: 1px solid var(--border); }
.share-crumbs { flex: 1 0 100%; overflow-wrap: anywhere; }
.share-page { display: flex; flex-wrap: wrap; gap: 16px; padding: 16px 0; align-items: flex-start; justify-content: center;
  max-width: 1200px; margin-inline: auto; }
.share-preview { flex: 1 1 560px; min-width: 0; padding: 0; overflow: hidden; }
.share-stage { position: relative; height: min(70vh, 720px); background: #0d0f12; color: #e7e9ec; }
.share-stage.share-audio { height: auto; padding: 24px 12px; background: var(--surface-2); color: var(--text); }
.share-stage .view-message { color: #a3abb5; }
.share-text { margin: 0; padding: 16px; max-height: 70vh; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere;
  font-family: var(--mono); font-size: 0.85rem; }
.share-preview .markdown-body { padding: 16px 24px; max-height: 70vh; overflow: auto; line-height: 1.6; }
.share-preview .markdown-body img { max-width: 100%; }
.share-preview .view-message { padding: 16px; }
.share-checkbox { width: 18px; height: 18px; margin: 0; accent-color: var(--accent); cursor: pointer; vertical-align: middle; }
.share-view { margin-inline-start: auto; }
.share-gallery { list-style: none; margin: 0; padding: 8px 12px; display: grid; gap: 8px;
  grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); }
.share-gallery a { display: flex; flex-direction: column; border: 1px solid var(--border); border-radius: 8px;
  overflow: hidden; color: var(--text); text-decoration: none; background: var(--surface); }
.share-gallery a:hover { border-color: var(--selected-border); }
.share-gallery img, .share-gallery-icon { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; background: var(--surface-2); }
.share-gallery-icon { display: flex; align-items: center; justify-content: center; color: var(--text-muted); }
.share-gallery-name { padding: 6px 8px; font-size: 0.85rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.share-gone { max-width: 420px; margin: 64px auto; padding: 32px 24px; display: flex; flex-direction: column;
  align-items: center; gap: 8px; text-align: center; }
.share-gone h1 { margin: 8px 0 0; font-size: 1.2rem; }
.share-gone p { margin: 0; }
.share-info { flex: 0 1 340px; display: flex; flex-direction: column; gap: 12px; padding: 20px; text-align: center; align-items: center; }
.share-info h1 { margin: 0; overflow-wrap: anywhere; font-size: 1.15rem; }
.share-info .share-meta { margin: 0; color: var(--text-muted); }
.share-info .share-buttons { display: flex; flex-wrap: wrap; gap: 8px; justify-content: center; }
.share-qr { background: #fff; padding: 0; border-radius: 4px; }
.share-items { flex: 1 1 420px; min-width: 0; padding: 8px 0; }
.share-items table { width: 100%; border-collapse: collapse; }
.share-items th, .share-items td { padding: 8px 12px; text-align: start; border-block-end: 1px solid var(--border); }
.share-items tr[aria-selected="true"] td { background: var(--accent-soft); }
.share-items th:first-child, .share-items td:first-child { width: 44px; }
.share-items td a { display: inline-flex; align-items: center; gap: 6px; }
.share-items .share-bar { display: flex; gap: 8px; padding: 0 12px 8px; align-items: center; flex-wrap: wrap; }
.share-password { max-width: 380px; margin: 48px auto; }
.share-password h1.card-title { font-size: 1.1rem; }
.share-table { width: 100%; border-collapse: collapse; }
.share-table th, .share-table td { padding: 8px; text-align: start; border-bottom: 1px solid var(--border); }
.share-table td.share-buttons { white-space: nowrap; text-align: end; }
@media (max-width: 736px) {
  .share-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .share-table tr { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr) auto; gap: 2px 8px; padding: 6px 0;
    border-bottom: 1px solid var(--border); }
  .share-table td { border: 0; padding: 2px 0; }
  .share-table td.share-buttons { grid-row: 1 / span 2; grid-column: 3; align-self: center; }
  .share-table td[data-label]::before { content: attr(data-label) ": "; color: var(--text-muted); }
}
`;

/** The share styles as a style element (inline styles are allowed by our CSP). */
export function ShareStyles() {
  return <style>{CSS}</style>;
}
