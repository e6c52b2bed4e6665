import { useEffect, useState } from "react";
import { island } from "../framework/island.tsx";
import { ErrorView } from "../components/ErrorView.tsx";
import { ShareStyles } from "../components/share/styles.tsx";
import {
  ApiError,
  fetchShareOrDrop,
  publicArchiveUrl,
  publicDownloadUrl,
  type ShareOrDrop,
} from "../client/api/mod.ts";
import { usePage } from "../client/hooks.ts";
import { copyText, sharePageUrl, shareSubOfLocation } from "../client/share.ts";
import { DropZone } from "./share/DropZone.tsx";
import { showError, showSuccess } from "../client/toasts.ts";
import type { Resource } from "../lib/types.ts";
import { PasswordCard } from "./share/PasswordCard.tsx";
import { ShareInfo } from "./share/ShareInfo.tsx";
import { ShareItems } from "./share/ShareItems.tsx";
import { hasSharePreview, SharePreview } from "./share/SharePreview.tsx";
import { ShareGone } from "../components/share/ShareGone.tsx";

/** Props of SharePage. */
export interface SharePageProps {
  hash: string;
  /** Path inside the share, decoded ("/" for the root). */
  sub: string;
  /** What the public share API answers for `sub`, when the server could tell (no password, link alive). */
  initial?: ShareOrDrop | null;
}

function SharePageImpl(props: SharePageProps) {
  const { t, locale } = usePage();
  const { hash } = props;
  const [sub, setSub] = useState(props.sub);
  const [password, setPassword] = useState("");
  const [res, setRes] = useState<ShareOrDrop | null>(props.initial ?? null);
  const [status, setStatus] = useState<number | null>(null);
  const [needPassword, setNeedPassword] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = async (path: string, pw: string, options: { attempt?: boolean } = {}) => {
    setBusy(true);
    try {
      const r = await fetchShareOrDrop(hash, path, pw);
      setRes(r);
      setStatus(null);
      setNeedPassword(false);
      setFailed(false);
      setPassword(pw);
    } catch (err) {
      const code = err instanceof ApiError ? err.status : 500;
      if (code === 401) {
        setNeedPassword(true);
        setFailed(!!options.attempt);
      } else {
        setStatus(code);
      }
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    // The page brings the first answer; the API only when it came without, and on every move inside the share.
    if (!props.initial) void load(sub, password);
    const onPop = () => {
      const next = shareSubOfLocation(hash);
      setSub(next);
      void load(next, password);
    };
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);

  const go = (path: string) => {
    history.pushState(null, "", sharePageUrl(hash, path));
    setSub(path);
    void load(path, password);
  };

  if (needPassword) {
    return (
      <>
        <ShareStyles />
        <PasswordCard failed={failed} busy={busy} t={t} onSubmit={(pw) => load(sub, pw, { attempt: true })} />
      </>
    );
  }
  if (status === 404) {
    return (
      <>
        <ShareStyles />
        <ShareGone t={t} />
      </>
    );
  }
  if (status !== null) return <ErrorView status={status} t={t} />;
  if (!res) return <ShareStyles />;
  if (res.drop) return <DropZone hash={hash} password={password} info={res.drop} locale={locale} t={t} />;
  const token = res.token;
  const target = res.isDir ? res.path.replace(/\/*$/, "/") : res.path;
  const downloadUrl = publicDownloadUrl(hash, target, { token });
  const itemUrl = (item: Resource) => publicDownloadUrl(hash, item.path, { token, absolute: true });
  const segments = sub.split("/").filter(Boolean);
  const crumbs = segments.length > 0 && !(res.path === "" && !res.isDir) && (
    <nav class="share-crumbs" aria-label={t("share.path")} data-testid="share-crumbs">
      {[res.isDir ? res.name : "/", ...segments].map((name, i) => {
        const path = "/" + segments.slice(0, i).join("/") + (i ? "/" : "");
        const last = i === segments.length;
        return (
          <span key={path}>
            {i > 0 && " / "}
            {last
              ? (
                <span aria-current="page">
                  <bdi>{name}</bdi>
                </span>
              )
              : (
                <a
                  href={sharePageUrl(hash, path)}
                  onClick={(e) => {
                    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
                    e.preventDefault();
                    go(path);
                  }}
                >
                  <bdi>{name || "/"}</bdi>
                </a>
              )}
          </span>
        );
      })}
    </nav>
  );
  return (
    <div class={res.isDir ? "share-page" : "share-page share-page-file"} data-testid="share-page">
      <ShareStyles />
      {crumbs}
      {!res.isDir && hasSharePreview(res) && (
        <SharePreview
          res={res}
          inlineUrl={publicDownloadUrl(hash, target, { token, inline: true })}
          urlOf={(path, o) =>
            o.inline ? publicDownloadUrl(hash, path, { token, inline: true }) : sharePageUrl(hash, path)}
          memoryKey={`share:${hash}${target}`}
          t={t}
        />
      )}
      <ShareInfo
        res={res}
        downloadUrl={downloadUrl}
        openUrl={res.isDir ? null : publicDownloadUrl(hash, target, { token, inline: true })}
        qrUrl={publicDownloadUrl(hash, target, { token, absolute: true })}
        locale={locale}
        t={t}
      />
      {res.isDir && (
        <ShareItems
          key={res.path}
          items={res.items ?? []}
          pageUrl={(item) => sharePageUrl(hash, item.isDir ? item.path + "/" : item.path)}
          imageUrl={(item) => publicDownloadUrl(hash, item.path, { token, inline: true })}
          onOpen={(item) => go(item.isDir ? item.path + "/" : item.path)}
          onDownload={(items) => {
            location.href = items.length === 1 && !items[0].isDir
              ? publicDownloadUrl(hash, items[0].path, { token })
              : publicArchiveUrl(hash, items.map((i) => i.path), { token });
          }}
          onCopy={async (item) => {
            try {
              await copyText(itemUrl(item));
              showSuccess(t("share.linkCopied"));
            } catch (err) {
              showError(err);
            }
          }}
          locale={locale}
          t={t}
        />
      )}
    </div>
  );
}

/** The public share page: password card, info box with QR code, and the read-only folder listing. */
export const SharePage = island("SharePage", SharePageImpl);
