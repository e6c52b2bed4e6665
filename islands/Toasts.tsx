import { island } from "../framework/island.tsx";
import { Icon } from "../components/Icon.tsx";
import { Check, TriangleAlert, X } from "../components/icons.ts";
import { usePage } from "../client/hooks.ts";
import { useEffect } from "preact/hooks";
import { dismissToast, issueUrl, showCarriedSuccess, toasts } from "../client/toasts.ts";

function ToastsImpl() {
  const { t, config } = usePage();
  // The startup config carries IssuesURL only when configured and external links are allowed.
  const tracker = config.IssuesURL;
  useEffect(() => showCarriedSuccess(), []);
  return (
    <div class="toasts" data-testid="toasts">
      {/* Two live regions: errors interrupt (alert), successes are polite (status). */}
      <div role="alert">
        {toasts.value.filter((x) => x.kind === "error").map((x) => (
          <div key={x.id} class="toast error" data-testid="toast-error">
            <Icon node={TriangleAlert} />
            <span>{x.message}</span>
            {tracker && x.report && (
              <a
                class="button flat small"
                href={issueUrl(tracker, x.message, config.Version)}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="toast-report"
              >
                {t("toasts.reportIssue")}
              </a>
            )}
            <button
              type="button"
              class="action small"
              aria-label={t("buttons.close")}
              title={t("buttons.close")}
              data-testid="toast-close"
              onClick={() =>
                dismissToast(x.id)}
            >
              <Icon node={X} size={18} />
            </button>
          </div>
        ))}
      </div>
      <div role="status">
        {toasts.value.filter((x) => x.kind === "success").map((x) => (
          <div key={x.id} class="toast success" data-testid="toast-success">
            <Icon node={Check} />
            <span>{x.message}</span>
          </div>
        ))}
      </div>
    </div>
  );
}

/** Toasts, bottom-right (bottom on mobile): successes vanish after 1 s, errors stay until closed. */
export const Toasts = island("Toasts", ToastsImpl);
