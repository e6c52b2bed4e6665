import { useEffect, useState } from "react";
import { island } from "../framework/island.tsx";
import { ErrorView } from "../components/ErrorView.tsx";
import { DataTable } from "../components/settings/DataTable.tsx";
import { ShareLinkActions } from "../components/share/ShareLinkActions.tsx";
import { ShareLinkName } from "../components/share/ShareLinkName.tsx";
import { ShareStyles } from "../components/share/styles.tsx";
import { ApiError, listAllShares, listUsers, shareUrl } from "../client/api/mod.ts";
import { usePage } from "../client/hooks.ts";
import { showPrompt } from "../client/prompts.ts";
import { copyShareLink, sortShares } from "../client/share.ts";
import { formatDate, formatRelative } from "../lib/format.ts";
import type { Share } from "../lib/types.ts";
import { ShareDeletePrompt } from "./share/ShareDelete.tsx";
import { registerPrompt } from "../client/prompts.ts";

registerPrompt("share-delete", ShareDeletePrompt, { labelKey: "share.deleteTitle" });

/** A table cell with a relative date (full date on hover), or `fallback` for 0 / unknown. */
function DateCell(
  props: { seconds?: number; fallback: string; locale: string; testId: string; label: string },
) {
  if (!props.seconds) return <td data-testid={props.testId} data-label={props.label}>{props.fallback}</td>;
  const iso = new Date(props.seconds * 1000).toISOString();
  return (
    <td title={formatDate(iso, props.locale)} data-testid={props.testId} data-label={props.label}>
      {formatRelative(iso, { locale: props.locale })}
    </td>
  );
}

function ShareManagerImpl(props: { links?: Share[] | null }) {
  const { t, locale, user } = usePage();
  const [links, setLinks] = useState<Share[] | null>(props.links ?? null);
  const [error, setError] = useState<number | null>(null);
  const admin = !!user?.perm.admin;

  const load = async () => {
    try {
      const list = await listAllShares();
      if (admin) {
        const users = await listUsers();
        const names = new Map(users.map((u) => [u.id, u.username]));
        for (const l of list) l.username = names.get(l.userID) ?? String(l.userID);
      }
      setLinks(list);
    } catch (err) {
      setError(err instanceof ApiError ? err.status : 500);
    }
  };
  // The page brings the links; the API only when it came without (and after a deletion).
  useEffect(() => {
    if (!props.links) void load();
  }, []);

  const copy = (hash: string) => copyShareLink(hash, t("share.linkCopied"));

  if (error !== null) return <ErrorView status={error} t={t} />;
  return (
    <section class="card settings-card wide" data-testid="share-manager">
      <ShareStyles />
      <h2 class="card-title">{t("settings.nav.shares")}</h2>
      <div class="card-content">
        <DataTable
          rows={links && sortShares(links)}
          loading={t("files.loading")}
          empty={{ text: t("files.lonely"), testId: "share-lonely" }}
          class="share-table"
          columns={[
            t("share.link"),
            t("share.path"),
            t("share.created"),
            t("share.expires"),
            admin && t("share.owner"),
            { hidden: t("share.actions") },
          ]}
          row={(l) => (
            <tr key={l.hash} data-hash={l.hash}>
              <td>
                <ShareLinkName
                  hash={l.hash}
                  href={shareUrl(l.hash)}
                  hasPassword={l.hasPassword}
                  passwordLabel={t("share.passwordProtected")}
                />
              </td>
              <td class="break" data-testid="share-path">{l.path}</td>
              <DateCell
                seconds={l.created}
                fallback="—"
                locale={locale}
                testId="share-created"
                label={t("share.created")}
              />
              <DateCell
                seconds={l.expire}
                fallback={t("share.permanent")}
                locale={locale}
                testId="share-expiry"
                label={t("share.expires")}
              />
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
          )}
        />
      </div>
    </section>
  );
}

/** The share management table (own links; every user's for admins, with the owner's name). */
export const ShareManager = island("ShareManager", ShareManagerImpl);
