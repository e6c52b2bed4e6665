// This module is browser-compatible.
/** Styles of the upload panel, the upload prompt and the drop zone; drawn with the app's CSS variables. */
export const UPLOAD_CSS = `
.upload-panel{position:fixed;inset-block-end:16px;inset-inline-end:16px;z-index:30;width:min(380px,calc(100vw - 32px));
  display:flex;flex-direction:column;max-height:min(420px,calc(100vh - var(--topbar-h) - 32px));background:var(--surface);
  border:1px solid var(--border);border-radius:12px;box-shadow:var(--shadow-lg);overflow:hidden}
.upload-head{display:flex;align-items:center;gap:4px;padding-block:6px;padding-inline:0 6px}
.upload-toggle{flex:1;min-width:0;display:flex;align-items:center;gap:8px;min-height:40px;padding-block:4px;
  padding-inline:14px 8px;border:0;border-radius:8px;background:transparent;color:var(--text);font:inherit;
  cursor:pointer;text-align:start}
.upload-toggle:hover{background:var(--surface-2)}
.upload-toggle:focus-visible,.upload-item .action:focus-visible,.upload-head .action:focus-visible,
.upload-choice:focus-visible{outline:none;box-shadow:var(--focus)}
.upload-summary{flex:1;min-width:0;display:flex;flex-direction:column;gap:2px}
.upload-title{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.upload-stats{display:flex;flex-wrap:wrap;gap:4px 12px;color:var(--text-muted);font-size:.85rem;
  font-variant-numeric:tabular-nums}
.upload-stats .pct{color:var(--text);font-weight:600}
.upload-panel progress{display:block;width:100%;height:4px;appearance:none;border:0;background:var(--surface-3)}
.upload-panel progress::-webkit-progress-bar{background:var(--surface-3)}
.upload-panel progress::-webkit-progress-value{background:var(--accent);transition:width .2s linear}
.upload-panel progress::-moz-progress-bar{background:var(--accent)}
.upload-list{list-style:none;margin:0;padding:4px 0;overflow-y:auto;border-block-start:1px solid var(--border)}
.upload-item{display:grid;grid-template-columns:24px minmax(0,1fr) auto 30px;grid-template-rows:auto 3px;
  align-items:center;column-gap:10px;row-gap:4px;padding-block:6px;padding-inline:14px 8px}
.upload-item .icon{color:var(--text-muted)}
.upload-item[data-dir] .icon{color:var(--folder)}
.upload-item .name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.upload-item .pct{color:var(--text-muted);font-size:.85rem;font-variant-numeric:tabular-nums}
.upload-item progress{grid-column:2/4;height:3px;border-radius:2px}
.upload-item[data-done] .pct{color:var(--success)}
.upload-more{padding:6px 14px;color:var(--text-muted);font-size:.85rem}
.upload-panel.collapsed .upload-list{display:none}
html:has(.upload-panel) .toasts{inset-block-end:calc(var(--upload-panel-h,0px) + 28px)}
html:has(.upload-panel) .main{padding-block-end:calc(var(--upload-panel-h,0px) + 24px)}
.upload-choices{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-block-start:4px}
.upload-choice{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:8px;min-height:96px;
  padding:12px;border:1px solid var(--border);border-radius:var(--radius);background:var(--surface);color:var(--text);
  font:inherit;cursor:pointer}
.upload-choice:hover{border-color:var(--accent);background:var(--accent-soft);color:var(--on-accent-soft)}
.upload-choice .icon{color:var(--accent)}
.upload-dropzone{position:fixed;inset:calc(var(--topbar-h) + 8px) 8px 8px;z-index:25;pointer-events:none;
  display:flex;align-items:flex-end;justify-content:center;padding-block-end:32px;border:3px dashed var(--accent);
  border-radius:16px;background:color-mix(in srgb,var(--accent) 8%,transparent)}
.upload-dropzone.on-row{background:transparent;border-color:color-mix(in srgb,var(--accent) 45%,transparent)}
.upload-dropzone.refused{border-color:var(--danger);background:color-mix(in srgb,var(--danger) 6%,transparent)}
.upload-dropzone-label{display:flex;align-items:center;gap:10px;max-width:calc(100% - 32px);padding:12px 20px;
  border-radius:999px;background:var(--accent);color:var(--on-accent);font-weight:600;box-shadow:var(--shadow-lg)}
.upload-dropzone-label span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.upload-dropzone.refused .upload-dropzone-label{background:var(--danger);color:var(--on-danger)}
@media (min-width:737px){.upload-dropzone{inset-inline-start:calc(var(--sidebar-w) + 8px)}}
@media (max-width:736px){
  .upload-panel{inset-inline:0;inset-block-end:0;width:auto;border-radius:12px 12px 0 0;border-inline:0;
    border-block-end:0;max-height:60vh}
  .upload-toggle{min-height:48px}
  .upload-head .action{width:44px;height:44px}
  .upload-item{min-height:44px;grid-template-columns:24px minmax(0,1fr) auto 44px;padding-block:2px}
  .upload-item .action{width:44px;height:44px}
  html:has(.upload-panel) .toasts{inset-block-end:calc(var(--upload-panel-h,0px) + 12px)}
}
@media (prefers-reduced-motion:reduce){.upload-panel progress::-webkit-progress-value{transition:none}}
.upload-resume{position:fixed;inset-block-start:72px;inset-inline:50% auto;transform:translateX(-50%);z-index:30;
  display:flex;flex-wrap:wrap;align-items:center;gap:8px 12px;max-width:calc(100vw - 32px);padding:8px 12px;
  background:var(--surface);color:var(--text);border:1px solid var(--border);border-radius:8px;box-shadow:var(--shadow-2,0 2px 8px rgba(0,0,0,.2))}
[dir=rtl] .upload-resume{transform:translateX(50%)}
`;
