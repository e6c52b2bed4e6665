// This module is browser-compatible.
/** Styles of the text file view (editor, rendered Markdown, CSV table); drawn with the app's CSS variables. */
export const EDITOR_CSS = `
.editor-view{display:flex;flex-direction:column;min-height:0;height:calc(100dvh - var(--topbar-h,56px) - 5.5rem);
  border:1px solid var(--border,#d0d7de);border-radius:var(--radius,8px);background:var(--surface,#fff);overflow:hidden}
.editor-toolbar{display:flex;align-items:center;gap:.5rem;padding:.4rem .6rem;border-block-end:1px solid var(--border,#d0d7de);
  background:var(--surface-2,var(--surface,#f6f8fa));flex-wrap:wrap}
.editor-name{font-size:1rem;font-weight:600;margin:0;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;
  display:flex;align-items:center;gap:.35rem}
.editor-dirty{color:var(--accent,#0969da);font-size:.8rem}
.editor-badge{display:inline-flex;align-items:center;gap:.25rem;font-size:.8rem;padding:.1rem .45rem;border-radius:999px;
  border:1px solid var(--border,#d0d7de);color:var(--text-muted,#59636e)}
.editor-tabs{display:inline-flex;border:1px solid var(--border,#d0d7de);border-radius:6px;overflow:hidden}
.editor-tab{background:transparent;border:0;padding:.3rem .7rem;color:inherit;cursor:pointer;font:inherit}
.editor-tab[aria-selected=true]{background:var(--accent,#0969da);color:var(--on-accent,#fff)}
.editor-spacer{flex:1}
.editor-status{color:var(--text-muted,#59636e);font-size:.85rem}
.editor-host{flex:1;min-height:0;overflow:hidden}
.editor-host[hidden]{display:none}
.editor-rendered{flex:1;min-height:0;overflow:auto;padding:1rem 1.5rem}
.view-message{padding:1rem;color:var(--text-muted,#59636e)}
.markdown-body{max-width:52rem;line-height:1.6;word-wrap:break-word}
.markdown-body img{max-width:100%}
.markdown-body pre{padding:.75rem;overflow:auto;border-radius:6px;background:var(--surface-2,#f6f8fa)}
.markdown-body code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.markdown-body :not(pre)>code{padding:.1em .3em;border-radius:4px;background:var(--surface-2,#f6f8fa)}
.markdown-body table{border-collapse:collapse}
.markdown-body th,.markdown-body td{border:1px solid var(--border,#d0d7de);padding:.3rem .6rem}
.markdown-body blockquote{margin:0;padding-inline-start:1rem;border-inline-start:4px solid var(--border,#d0d7de);
  color:var(--text-muted,#59636e)}
.csv-view{overflow:auto}
.csv-table{border-collapse:collapse;font-size:.9rem}
.csv-table th,.csv-table td{border:1px solid var(--border,#d0d7de);padding:.25rem .55rem;text-align:start;
  white-space:pre-wrap;vertical-align:top}
.csv-table thead th{position:sticky;top:0;background:var(--surface-2,#f6f8fa)}
.csv-rownum{color:var(--text-muted,#59636e);text-align:end;font-variant-numeric:tabular-nums}
.csv-note{color:var(--text-muted,#59636e);font-size:.85rem}
`;
