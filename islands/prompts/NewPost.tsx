import { useEffect, useState } from "react";
import { PromptCard } from "../../components/PromptCard.tsx";
import { PublishStyles } from "../../components/publish/styles.tsx";
import { filesUrl } from "../../client/page.ts";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { createPost, listArchetypes } from "../../client/api/mod.ts";
import { isoWithOffset, publishCallMessage } from "../../client/publish.ts";
import { navigate } from "../../client/router.ts";
import { slugify } from "../../lib/publish/archetype.ts";
import type { Archetype } from "../../lib/types.ts";

/** Props of the new-post prompt. */
export interface NewPostProps {
  /** The content folder (a vpath of the user). */
  content: string;
  /** The folder below it where the prompt was opened ("" at its top). */
  section: string;
}

/** The "new archetype post" prompt: archetype, title and section; the post then opens in the editor. */
export function NewPostPrompt(props: PromptProps<NewPostProps>) {
  const { t } = usePage();
  const { content } = props.props;
  const [archetypes, setArchetypes] = useState<Archetype[] | null>(null);
  const [archetype, setArchetype] = useState("default.md");
  const [title, setTitle] = useState("");
  const [section, setSection] = useState(props.props.section);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    listArchetypes().then(setArchetypes, (err) => {
      setArchetypes([]);
      setError(publishCallMessage(err, "create", ""));
    });
  }, []);

  const pick = (name: string) => {
    setArchetype(name);
    // At the top of the content folder a section archetype (posts.md) suggests its section, as `hugo new` does.
    if (props.props.section === "") setSection(name === "default.md" ? "" : name.replace(/\.[^.]*$/, ""));
  };
  const slug = slugify(title);
  const target = `${content.replace(/\/$/, "")}/${
    section ? `${section.replace(/^\/+|\/+$/g, "")}/` : ""
  }${slug}.md`;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy || !slug) return;
    setBusy(true);
    setError("");
    try {
      const post = await createPost({
        archetype,
        title: title.trim(),
        section,
        date: isoWithOffset(new Date()),
      });
      props.close();
      navigate(filesUrl(post.path));
    } catch (err) {
      setError(publishCallMessage(err, "create", `${slug}.md`));
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit}>
      <PromptCard
        title={t("publish.newPost.title")}
        testId="new-post"
        actions={
          <>
            <button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>
            <button type="submit" class="button" disabled={busy || !slug || archetypes === null}>
              {t("buttons.create")}
            </button>
          </>
        }
      >
        <PublishStyles />
        <div class="publish-form">
          <label class="field">
            <span>{t("publish.newPost.archetype")}</span>
            <select
              class="input"
              name="archetype"
              value={archetype}
              disabled={archetypes === null}
              onChange={(e) => pick((e.currentTarget as HTMLSelectElement).value)}
            >
              {(archetypes ?? [{ name: "default.md", builtin: true }]).map((a) => (
                <option key={a.name} value={a.name}>
                  {a.builtin ? t("publish.newPost.builtin", { name: a.name }) : a.name}
                </option>
              ))}
            </select>
          </label>
          <label class="field">
            <span>{t("publish.newPost.postTitle")}</span>
            <input
              class="input"
              name="title"
              autoFocus
              autocomplete="off"
              value={title}
              onInput={(e) => setTitle((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <label class="field">
            <span>{t("publish.newPost.section")}</span>
            <input
              class="input"
              name="section"
              autocomplete="off"
              spellcheck={false}
              value={section}
              onInput={(e) => setSection((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <p class="publish-hint" data-testid="new-post-target">
            {slug ? t("publish.newPost.target", { path: target }) : t("publish.newPost.needTitle")}
          </p>
          {error && <p class="publish-error" role="alert">{error}</p>}
        </div>
      </PromptCard>
    </form>
  );
}
