// This module is browser-compatible.
/** Registers the publishing prompts and their header buttons with the files page (issue #11). */
import CalendarClock from "lucide/dist/esm/icons/calendar-clock.mjs";
import NotebookPen from "lucide/dist/esm/icons/notebook-pen.mjs";
import type { ActionContext } from "../../client/actions.ts";
import { registerHeaderAction } from "../../client/actions.ts";
import { IS_BROWSER } from "../../client/page.ts";
import { registerPrompt, showPrompt } from "../../client/prompts.ts";
import { isUnder, loadSiteInfo, sectionOf, siteInfo } from "../../client/publish.ts";
import { resource, user } from "../../client/state.ts";
import { NewPostPrompt } from "./NewPost.tsx";
import { SchedulePublishPrompt } from "./SchedulePublish.tsx";

registerPrompt("new-post", NewPostPrompt, { labelKey: "publish.newPost.title" });
registerPrompt("schedule-publish", SchedulePublishPrompt, { labelKey: "publish.schedule.title" });

const perm = user.value?.perm;
if (IS_BROWSER && (perm?.create || perm?.publish)) void loadSiteInfo();

/** The content folder when the current view (folder or open file) lies inside it, else null. */
function contentOf(ctx: ActionContext): string | null {
  const content = siteInfo.value?.content;
  return content && isUnder(content, ctx.path) ? content : null;
}

const inFolder = (ctx: ActionContext) => !!ctx.listing && resource.value?.isDir === true;

/** The post the schedule button acts on: the one selected file, or the open file; "" = only the list. */
function postOf(ctx: ActionContext, content: string): string | null {
  if (!inFolder(ctx)) return resource.value && !resource.value.isDir ? resource.value.path : null;
  if (ctx.selected.length === 0) return "";
  const [item] = ctx.selected;
  return ctx.selected.length === 1 && !item.isDir && isUnder(content, item.path) ? item.path : null;
}

registerHeaderAction({
  id: "new-post",
  labelKey: "publish.newPost.title",
  icon: NotebookPen,
  order: 12,
  group: "page",
  visible: (ctx) => inFolder(ctx) && !!ctx.user.perm.create && contentOf(ctx) !== null,
  run: (ctx) => {
    const content = contentOf(ctx)!;
    showPrompt("new-post", { content, section: sectionOf(content, ctx.path) });
  },
});

registerHeaderAction({
  id: "schedule-publish",
  labelKey: "publish.schedule.title",
  icon: CalendarClock,
  order: 14,
  group: "page",
  visible: (ctx) => {
    const content = contentOf(ctx);
    return !!ctx.user.perm.publish && content !== null && postOf(ctx, content) !== null;
  },
  label: (ctx) =>
    postOf(ctx, contentOf(ctx) ?? "") === "" ? "publish.schedule.listTitle" : "publish.schedule.title",
  run: (ctx) => {
    const path = postOf(ctx, contentOf(ctx)!);
    showPrompt("schedule-publish", path ? { path } : {});
  },
});
