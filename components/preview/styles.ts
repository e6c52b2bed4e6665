// This module is browser-compatible.
/** Styles of the full-window preview; drawn with the app's CSS variables (static/app.css). */
export const PREVIEW_CSS = `
.preview{position:fixed;inset:0;z-index:45;display:flex;flex-direction:column;background:#0d0f12;color:#e7e9ec}
.preview-bar{display:flex;align-items:center;gap:.25rem;height:var(--topbar-h,56px);padding:0 .5rem;
  background:rgb(20 22 26 / .92);border-bottom:1px solid rgb(255 255 255 / .08);flex:none}
.preview-bar .action{display:inline-flex;align-items:center;justify-content:center;width:40px;height:40px;border:0;
  border-radius:999px;background:transparent;color:inherit;cursor:pointer;text-decoration:none}
.preview-bar .action:hover{background:rgb(255 255 255 / .1)}
.preview-bar .action[aria-pressed=true]{background:rgb(255 255 255 / .18)}
.preview-title{flex:1;min-width:0;margin:0 .5rem;font-size:1rem;font-weight:600;overflow:hidden;text-overflow:ellipsis;
  white-space:nowrap}
.preview-status{font-variant-numeric:tabular-nums;color:#a3abb5;font-size:.85rem;margin-inline-end:.5rem}
.preview-actions{display:flex;gap:.15rem}
.preview-body{position:relative;flex:1;min-height:0;display:flex;align-items:center;justify-content:center;overflow:hidden}
.image-viewer{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;overflow:hidden;
  touch-action:none;user-select:none;cursor:zoom-in}
.image-viewer.zoomed{cursor:grab}
.image-viewer.dragging{cursor:grabbing}
.image-viewer img{max-width:100%;max-height:100%;object-fit:contain;transform-origin:center;will-change:transform;
  image-orientation:from-image}
.image-viewer:not(.dragging) img{transition:transform .12s ease-out}
.media-player{display:flex;flex-direction:column;align-items:center;gap:.5rem;width:100%;height:100%;
  justify-content:center;padding:1rem}
.media-player video{width:100%;height:calc(100% - 3rem);object-fit:contain;background:#000}
.media-player audio{width:min(36rem,100%)}
.media-rate{display:inline-flex;align-items:center;gap:.4rem;font-size:.85rem;color:#a3abb5}
.media-rate select{background:#1b1e23;color:#e7e9ec;border:1px solid #30353d;border-radius:6px;padding:.15rem .35rem}
.preview-pdf{width:100%;height:100%;border:0;background:#fff}
.preview-none{display:flex;flex-direction:column;align-items:center;gap:.5rem;text-align:center;padding:2rem;color:#a3abb5}
.preview-none-name{font-weight:600;color:#e7e9ec;word-break:break-word}
.preview-nav{position:absolute;top:50%;transform:translateY(-50%);width:48px;height:64px;border:0;border-radius:8px;
  display:flex;align-items:center;justify-content:center;background:rgb(20 22 26 / .6);color:#fff;cursor:pointer;
  transition:opacity .3s}
.preview-prev{inset-inline-start:.5rem}
.preview-next{inset-inline-end:.5rem}
[dir=rtl] .preview-nav svg{transform:scaleX(-1)}
.preview[data-nav=hidden] .preview-nav:not(:focus-visible){opacity:0;pointer-events:none}
.preview .action:focus-visible,.preview-nav:focus-visible{outline:2px solid #7aa7ff;outline-offset:2px}
.preview .view-message{color:#a3abb5}
@media (max-width:736px){.preview-nav{width:40px;height:52px}.preview-bar .hide-on-mobile,.preview-status{display:none}
  .preview-bar .action{width:44px;height:44px}}
`;
