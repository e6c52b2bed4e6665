import { Icon } from "../Icon.tsx";
import { Link2Off } from "../icons.ts";

/** The card shown for an unknown or expired share link. */
export function ShareGone(props: { t: (key: string) => string }) {
  const { t } = props;
  return (
    <section class="card share-gone" role="alert" data-testid="share-gone">
      <Icon node={Link2Off} size={48} />
      <h1>{t("share.goneTitle")}</h1>
      <p class="muted">{t("share.goneText")}</p>
    </section>
  );
}
