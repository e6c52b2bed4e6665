import { useEffect, useState } from "react";
import { island } from "../framework/island.tsx";
import { ErrorView } from "../components/ErrorView.tsx";
import { ShareLinkActions } from "../components/share/ShareLinkActions.tsx";
import { ShareStyles } from "../components/share/styles.tsx";
import { ApiError, apiFetch } from "../client/api.ts";
import { usePage } from "../client/hooks.ts";
import { showPrompt } from "../client/prompts.ts";
import { copyShareLink, expiryIso, listAllShares, shareUrl } from "../client/share.ts";
import { formatDate, formatRelative } from "../lib/format.ts";
import type { Share, User } from "../lib/types.ts";
import { ShareDeletePrompt } from "./share/ShareDelete.tsx";
import { registerPrompt } from "../client/prompts.ts";

registerPrompt("share-delete", ShareDeletePrompt, { labelKey: "share.deleteTitle" });

function ShareManagerImpl() {
  const { t, locale, user } = usePage();
  const [links, setLinks] = useState<Share[] | null>(null);
  const [error, setError] = useState<number | null>(null);
  const admin = !!user?.perm.admin;

  const load = async () => {
    try {
      const list = await listAllShares();
      if (admin) {
        const users = await (await apiFetch("/users")).json() as User[];
        const names = new Map(users.map((u) => [u.id, u.username]));
        for (const l of list) l.username = names.get(l.userID) ?? String(l.userID);
      }
      setLinks(list);
    } catch (err) {
      setError(err instanceof ApiError ? err.status : 500);
    }
  };
  useEffect(() => void load(), []);

  const copy = (hash: string) => copyShareLink(hash, t("share.linkCopied"));

  if (error !== null) return <ErrorView status={error} t={t} />;
  return (
    <section class="card settings-card wide" data-testid="share-manager">
      <ShareStyles />
      <h2 class="card-title">{t("settings.nav.shares")}</h2>
      <div class="card-content">
        {!links
          ? <p class="muted">{t("files.loading")}</p>
          : !links.length
          ? <p class="empty" data-testid="share-lonely">{t("files.lonely")}</p>
          : (
            <table class="share-table">
              <thead>
                <tr>
                  <th>{t("share.path")}</th>
                  <th>{t("share.duration")}</th>
                  {admin && <th>{t("share.owner")}</th>}
                  <th>
                    <span class="sr-only">{t("share.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {links.map((l) => {
                  const iso = expiryIso(l.expire);
                  return (
                    <tr key={l.hash} data-hash={l.hash}>
                      <td>
                        <a href={shareUrl(l.hash)} target="_blank" rel="noopener" class="break">{l.path}</a>
                      </td>
                      <td title={iso ? formatDate(iso, locale) : undefined}>
                        {iso ? formatRelative(iso, { locale }) : t("share.permanent")}
                      </td>
                      {admin && <td>{l.username}</td>}
                      <td class="share-buttons">
                        <ShareLinkActions
                          copyLabel={t("share.copyLink")}
                          deleteLabel={t("share.deleteLink")}
                          onCopy={() => copy(l.hash)}
                          onDelete={() => showPrompt("share-delete", { hash: l.hash, onDone: load })}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
      </div>
    </section>
  );
}

/** The share management table (own links; every user's for admins, with the owner's name). */
export const ShareManager = island("ShareManager", ShareManagerImpl);
