// This module is browser-compatible.
/** Styles of the search overlay (the prompt dialog named "search" is repositioned under the top bar). */
export const SEARCH_CSS = `
.prompt[data-prompt=search]{position:fixed;inset-block-start:var(--search-top,6px);inset-inline:0;margin-inline:auto;
  margin-block:0;width:min(680px,calc(100vw - 16px));max-height:calc(100dvh - var(--search-top,6px) - 6px);z-index:60}
.search-overlay{display:flex;flex-direction:column;max-height:calc(100dvh - var(--search-top,6px) - 6px);background:var(--surface);
  color:var(--text);border:1px solid var(--border);border-radius:12px;box-shadow:var(--shadow-lg);overflow:hidden}
.search-form{display:flex;align-items:center;gap:.5rem;padding:.5rem .75rem;border-block-end:1px solid var(--border)}
.search-form input{flex:1;min-width:0;border:0;background:transparent;font-size:1.05rem;padding:.4rem 0;outline:none}
.search-form input:focus-visible{box-shadow:none}
.search-form input::-webkit-search-cancel-button{display:none}
.search-form .action{display:inline-flex;align-items:center;justify-content:center;width:36px;height:36px;border:0;
  border-radius:999px;background:transparent;color:var(--text-muted);cursor:pointer}
.search-form .action:hover{background:var(--surface-2)}
.search-chip{display:inline-flex;align-items:center;gap:.25rem;padding:.2rem .5rem;border:1px solid var(--selected-border);
  border-radius:999px;background:var(--accent-soft);color:var(--on-accent-soft);cursor:pointer;font-size:.85rem;
  white-space:nowrap}
.search-scope{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .6rem;margin:0;padding:.5rem .9rem 0;
  color:var(--text-muted);font-size:.9rem}
.search-scope-switch{border:0;background:transparent;color:var(--accent-text);cursor:pointer;padding:.2rem .3rem;
  font:inherit;text-decoration:underline;border-radius:6px;min-height:32px}
.search-types{display:flex;flex-wrap:wrap;gap:.4rem;padding:.5rem .75rem}
.search-type{display:inline-flex;align-items:center;gap:.35rem;padding:.3rem .7rem;border:1px solid var(--border);
  border-radius:999px;background:var(--surface);color:var(--text);cursor:pointer;font-size:.9rem;min-height:32px}
.search-type:hover{background:var(--surface-2)}
.search-type[aria-pressed=true]{background:var(--accent-soft);border-color:var(--selected-border);
  color:var(--on-accent-soft)}
.search-status{padding:.4rem .9rem;color:var(--text-muted);font-size:.9rem}
.search-scroll{overflow-y:auto;min-height:0;flex:1}
.search-list{list-style:none;margin:0;padding:0 0 .4rem}
.search-hit{display:flex;align-items:center;gap:.6rem;padding:.35rem .9rem;color:var(--text);text-decoration:none;
  min-height:44px}
.search-hit:hover,.search-hit:focus-visible{background:var(--surface-2)}
.search-hit:focus-visible{outline:2px solid var(--accent);outline-offset:-2px}
.search-thumb{flex:none;display:inline-flex;align-items:center;justify-content:center;width:32px;height:32px;
  border-radius:4px;object-fit:cover;background:var(--surface-2)}
.search-icon-dir{color:var(--folder)}
.search-text{display:flex;flex-direction:column;min-width:0;flex:1}
.search-name,.search-folder{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;unicode-bidi:plaintext}
.search-folder{color:var(--text-muted);font-size:.8rem}
.search-meta{display:flex;flex-direction:column;align-items:flex-end;flex:none;color:var(--text-muted);
  font-size:.8rem;text-align:end}
@media (max-width:736px){.prompt[data-prompt=search]{inset-block-start:var(--search-top,0px);width:100vw;
  max-height:calc(100dvh - var(--search-top,0px));border-radius:0}
  .search-overlay{border-radius:0;max-height:calc(100dvh - var(--search-top,0px));height:calc(100dvh - var(--search-top,0px))}
  .search-type{min-height:44px}}
`;
