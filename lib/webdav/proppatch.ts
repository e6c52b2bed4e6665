/** PROPPATCH: sets and removes dead properties atomically (live ones are protected: 403, the rest 424). */
import { HttpError, NotFoundError } from "../errors.ts";
import { resolveScoped } from "../fs/gate.ts";
import { checkConditions, type DavContext, hrefOf, segsOf } from "./context.ts";
import { clarkName, MAX_PROP_BYTES, patchDeadProps, type PropChange } from "./dead_props.ts";
import {
  emptyPropXml,
  MULTISTATUS_END,
  MULTISTATUS_START,
  propstatXml,
  PROTECTED_PROPS,
} from "./props_xml.ts";
import {
  childElements,
  DAV_NS,
  escapeXml,
  parseXmlBody,
  readXmlText,
  serializeElement,
  type XmlElement,
} from "./xml.ts";

interface Instruction {
  el: XmlElement;
  change: PropChange;
}

function parseUpdate(root: XmlElement | null): Instruction[] {
  if (root === null || root.ns !== DAV_NS || root.name !== "propertyupdate") {
    throw new HttpError(400, "bad_proppatch");
  }
  const out: Instruction[] = [];
  for (const action of childElements(root, DAV_NS)) {
    if (action.name !== "set" && action.name !== "remove") continue;
    for (const prop of childElements(action, DAV_NS, "prop")) {
      for (const el of childElements(prop)) {
        const value = action.name === "set" ? serializeElement(el) : null;
        if (value !== null && value.length > MAX_PROP_BYTES) throw new HttpError(507, "property_too_large");
        out.push({ el, change: { clark: clarkName(el.ns, el.name), value } });
      }
    }
  }
  if (!out.length) throw new HttpError(400, "bad_proppatch");
  return out;
}

/** Answers a PROPPATCH. */
export async function proppatch(ctx: DavContext): Promise<Response> {
  const text = await readXmlText(ctx.request);
  const p = await resolveScoped(ctx.fs.gate, ctx.vpath, "modify");
  if (p.lstat === null) throw new NotFoundError();
  // Parsed only for a user who may change the resource.
  const instructions = parseUpdate(parseXmlBody(text));
  await checkConditions(ctx, p, [{ segs: segsOf(p) }]);
  const refused = instructions.filter((i) => PROTECTED_PROPS.has(i.change.clark));
  const names = (list: Instruction[]) => list.map((i) => emptyPropXml(i.el.ns, i.el.name)).join("");
  let body: string;
  if (refused.length) {
    const others = instructions.filter((i) => !PROTECTED_PROPS.has(i.change.clark));
    body = propstatXml(names(refused), "403 Forbidden") +
      (others.length ? propstatXml(names(others), "424 Failed Dependency") : "");
  } else {
    await patchDeadProps(ctx.kv, segsOf(p), instructions.map((i) => i.change), { userId: ctx.fs.user.id });
    body = propstatXml(names(instructions), "200 OK");
  }
  const href = hrefOf(ctx, p.vpath, p.stat?.isDirectory === true);
  return new Response(
    `${MULTISTATUS_START}<response><href>${escapeXml(href)}</href>${body}</response>${MULTISTATUS_END}`,
    { status: 207, headers: { "Content-Type": "application/xml; charset=utf-8" } },
  );
}
