import { useEffect, useRef } from "react";
import { batch } from "@preact/signals";
import { island } from "../framework/island.tsx";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { ErrorView } from "../components/ErrorView.tsx";
import { ApiError, loadResource } from "../client/api/mod.ts";
import { usePage } from "../client/hooks.ts";
import { installShortcuts } from "../client/keyboard.ts";
import { isPlainClick, navigate, startRouter } from "../client/router.ts";
import { pruneSelection } from "../client/selection.ts";
import {
  currentPath,
  listing,
  loadError,
  loading,
  reloadTick,
  resource,
  selection,
} from "../client/state.ts";
import { fileViews } from "../client/views.ts";
import { filesUrl, IS_BROWSER } from "../client/page.ts";
import type { Resource } from "../lib/types.ts";
import { FileCard } from "./files/FileCard.tsx";
import { Listing } from "./files/Listing.tsx";
import { PRELOAD_MAX_ITEMS } from "./files/use_window.ts";
import { PasteChip } from "./files/PasteChip.tsx";
import { Skeleton } from "../components/Skeleton.tsx";
// Preview, text editor and search register their views, prompt and buttons (issue #5).
import "./preview/mod.ts";
// Share dialog and the share button (share links).
import "./share/mod.ts";
// New post and schedule publish prompts with their buttons (publishing, issue #11).
import "./prompts/publish.ts";
// Upload prompt, drop zone and upload panel (issue #6).
import { UploadLayer } from "./upload/UploadLayer.tsx";

/** Props of FileBrowser. */
export interface FileBrowserProps {
  /** The vpath of the URL, decoded (the server renders breadcrumbs for it). */
  path: string;
  /**
   * A folder's first screen, rendered by the server and adopted by the browser: the folder with its first
   * items in display order and the totals of the whole folder (`numDirs`, `numFiles`). Null for anything else.
   */
  listing?: Resource | null;
}

/** Shows the server's first screen at once (the page's first render, or a main area swapped in). */
function adopt(first: Resource | null | undefined): boolean {
  if (!IS_BROWSER || !first || first.path.replace(/\/*$/, "/") !== currentPath.value) return false;
  batch(() => {
    resource.value = first;
    listing.value = first;
    loading.value = false;
    loadError.value = null;
  });
  // A whole folder needs no request; otherwise the rest comes from the listing the page preloaded (a big one
  // from the listing worker's own request).
  const total = first.numDirs! + first.numFiles!;
  const complete = first.items!.length === total;
  preloaded = !complete && total <= PRELOAD_MAX_ITEMS;
  return complete;
}

let loadId = 0;
/** The first load of the page uses the listing request the server preloaded. */
let preloaded = true;

async function load(path: string): Promise<void> {
  const id = ++loadId;
  const sameFolder = listing.value?.path.replace(/\/*$/, "/") === path;
  // Stepping from file to file (preview arrows) keeps the open view until the next file arrives: no flash.
  const fileToFile = !!resource.value && !resource.value.isDir && !path.endsWith("/");
  batch(() => {
    loading.value = true;
    loadError.value = null;
    // Keep the listing on a reload of the same folder (no flash); show skeletons for a new one.
    if (!sameFolder && !fileToFile) resource.value = null;
  });
  try {
    const usePreload = preloaded;
    preloaded = false;
    const res = await loadResource(path, { preloaded: usePreload });
    if (id !== loadId) return;
    if (res.isDir && !path.endsWith("/")) {
      navigate(filesUrl(path, { isDir: true }), { replace: true });
      return;
    }
    batch(() => {
      resource.value = res;
      if (res.isDir) {
        listing.value = res;
        if (selection.value.size) pruneSelection(new Set((res.items ?? []).map((i) => i.path)));
      }
      loading.value = false;
    });
  } catch (err) {
    if (id !== loadId) return;
    batch(() => {
      loadError.value = err instanceof ApiError ? err.status : 500;
      resource.value = null;
      loading.value = false;
    });
  }
}

function FileBrowserImpl(props: FileBrowserProps) {
  const page = usePage();
  const { t, config } = page;
  const path = IS_BROWSER ? currentPath.value : props.path;
  const tick = reloadTick.value;
  // Adopted during the first render, before anything reads the store, so it matches the server's markup.
  const skipLoad = useRef<boolean | null>(null);
  if (skipLoad.current === null) skipLoad.current = adopt(props.listing);

  useEffect(() => {
    const stopRouter = startRouter();
    const removeShortcuts = installShortcuts();
    return () => {
      stopRouter();
      removeShortcuts();
    };
  }, []);
  useEffect(() => {
    if (skipLoad.current) skipLoad.current = false;
    else void load(currentPath.value);
  }, [path, tick]);
  useEffect(() => {
    const name = path.split("/").filter(Boolean).pop() ?? t("sidebar.myFiles");
    document.title = `${name} - ${config.Name || "File Browser"}`;
  }, [path]);

  const res = IS_BROWSER ? resource.value : props.listing ?? null;
  const error = IS_BROWSER ? loadError.value : null;
  const folder = res && !res.isDir ? path.slice(0, path.lastIndexOf("/") + 1) : path;
  const onNav = (e: MouseEvent) => {
    const a = (e.target as Element).closest("a");
    if (!a || !isPlainClick(e)) return;
    e.preventDefault();
    navigate(a.href);
  };
  const view = res && !res.isDir ? fileViews.value.find((v) => v.match(res)) : undefined;
  return (
    <div class="files" data-testid="files" data-path={path} data-loading={loading.value ? "true" : undefined}>
      <div class="crumbs-bar" onClick={onNav}>
        <Breadcrumbs
          path={folder}
          urlOf={(p) =>
            filesUrl(p)}
          t={t}
        />
        {res?.isDir && <PasteChip page={page} />}
      </div>
      {error !== null
        ? <ErrorView status={error} t={t} />
        : !res
        ? <Skeleton label={t("files.loading")} />
        : res.isDir
        ? <Listing dir={res} page={page} />
        : view
        ? <view.component resource={res} />
        : <FileCard file={res} page={page} />}
      <UploadLayer />
    </div>
  );
}

/** The files page: breadcrumbs, then the listing, a file view, skeletons while loading, or the error screen. */
export const FileBrowser = island("FileBrowser", FileBrowserImpl);
