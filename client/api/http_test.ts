import assert from "node:assert/strict";
import {
  ApiError,
  apiFetch,
  apiJson,
  apiText,
  NO_CONNECTION,
  readJson,
  request,
  type SessionHooks,
  setSessionHooks,
} from "./http.ts";
import { t } from "../hooks.ts";
import { errorMessage } from "../toasts.ts";

interface Seen {
  url: string;
  headers: Headers;
  body: string | null;
  logouts: number;
  renewals: number;
}

/** Runs `body` with a fake fetch answering `answer` and a session whose token is `token`; returns what was seen. */
async function withServer(
  answer: (req: Request) => Response | Promise<Response>,
  body: () => Promise<void>,
  token = "tok",
): Promise<Seen> {
  const seen: Seen = { url: "", headers: new Headers(), body: null, logouts: 0, renewals: 0 };
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(new URL(String(input), "http://app.test"), init);
    seen.url = String(input);
    seen.headers = req.headers;
    seen.body = init?.body === undefined ? null : await req.text();
    return await answer(req);
  };
  const hooks: SessionHooks = {
    getToken: () => token,
    logout: () => {
      seen.logouts++;
      return Promise.resolve();
    },
    renewToken: () => {
      seen.renewals++;
      return Promise.resolve();
    },
  };
  const previous = setSessionHooks(hooks);
  try {
    await body();
  } finally {
    globalThis.fetch = realFetch;
    setSessionHooks(previous);
  }
  return seen;
}

const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);

Deno.test('apiFetch(): a network failure is status 0, "000 No connection"', async () => {
  await withServer(() => Promise.reject(new TypeError("Failed to fetch")), async () => {
    const err = await failure(apiFetch("/resources/"));
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 0);
    assert.equal(err.message, NO_CONNECTION);
  });
});

Deno.test("apiFetch(): an abort passes through as the AbortError, not as a lost connection", async () => {
  const ctrl = new AbortController();
  await withServer(() => {
    ctrl.abort();
    return Promise.reject(new DOMException("aborted", "AbortError"));
  }, async () => {
    const err = await failure(apiFetch("/search/", { signal: ctrl.signal }));
    assert.ok(err instanceof DOMException && !(err instanceof ApiError));
    assert.equal(err.name, "AbortError");
  });
});

Deno.test("apiFetch(): a non-2xx answer becomes ApiError with the status, the trimmed text and the headers", async () => {
  const cases: [number, string, string][] = [
    [400, "400 Bad Request (bad rule: missing ))\n", "400 Bad Request (bad rule: missing ))"],
    [403, "403 Forbidden", "403 Forbidden"],
    [404, "", "404"],
    [409, "  \n", "409"],
    [500, "500 Internal Server Error", "500 Internal Server Error"],
    [503, "", "503"],
  ];
  for (const [status, text, message] of cases) {
    await withServer(() => new Response(text, { status, headers: { "Retry-After": "3" } }), async () => {
      const err = await failure(apiFetch("/settings"));
      assert.ok(err instanceof ApiError, `${status}`);
      assert.equal(err.status, status);
      assert.equal(err.message, message);
      assert.equal(err.headers.get("Retry-After"), "3");
    });
  }
});

Deno.test("errorMessage(): no connection, forbidden, not found and internal have their own texts", () => {
  assert.equal(errorMessage(new ApiError(0, NO_CONNECTION)), t("errors.connection"));
  assert.equal(errorMessage(new ApiError(403, "403")), t("errors.forbidden"));
  assert.equal(errorMessage(new ApiError(404, "404")), t("errors.notFound"));
  assert.equal(errorMessage(new Error("boom")), t("errors.internal"));
  const texts = new Set(
    ["errors.connection", "errors.forbidden", "errors.notFound", "errors.internal"].map((k) => t(k)),
  );
  assert.equal(texts.size, 4);
});

Deno.test("apiFetch(): sends X-Auth and prefixes /api; cookieAuth and anonymous calls send no token", async () => {
  let seen = await withServer(() => new Response("ok"), async () => {
    assert.equal(await apiText("/x"), "ok");
  });
  assert.equal(seen.url, "/api/x");
  assert.equal(seen.headers.get("X-Auth"), "tok");
  seen = await withServer(
    () => new Response("ok"),
    async () => void await apiFetch("/x", { cookieAuth: true }),
  );
  assert.equal(seen.headers.get("X-Auth"), null);
  seen = await withServer(
    () => new Response("ok"),
    async () => void await request("/share/x", { anonymous: true }),
  );
  assert.equal(seen.url, "/share/x");
  assert.equal(seen.headers.get("X-Auth"), null);
});

Deno.test("apiFetch(): a 401 logs out an authenticated session, unless noLogout, anonymous or no token", async () => {
  const unauthorized = () => new Response("401 Unauthorized", { status: 401 });
  let seen = await withServer(unauthorized, async () => void await failure(apiFetch("/resources/")));
  assert.equal(seen.logouts, 1);
  seen = await withServer(unauthorized, async () => {
    const err = await failure(apiFetch("/login", { noLogout: true }));
    assert.ok(err instanceof ApiError && err.status === 401);
  });
  assert.equal(seen.logouts, 0);
  seen = await withServer(unauthorized, async () => void await failure(request("/p", { anonymous: true })));
  assert.equal(seen.logouts, 0);
  seen = await withServer(unauthorized, async () => void await failure(apiFetch("/resources/")), "");
  assert.equal(seen.logouts, 0);
  // Other refusals never end the session.
  seen = await withServer(
    () => new Response("", { status: 403 }),
    async () => void await failure(apiFetch("/x")),
  );
  assert.equal(seen.logouts, 0);
});

Deno.test("apiFetch(): X-Renew-Token: true renews the token once, other answers do not", async () => {
  let seen = await withServer(
    () => new Response("ok", { headers: { "X-Renew-Token": "true" } }),
    async () => {
      await apiText("/x");
    },
  );
  assert.equal(seen.renewals, 1);
  seen = await withServer(() => new Response("ok", { headers: { "X-Renew-Token": "false" } }), async () => {
    await apiText("/x");
  });
  assert.equal(seen.renewals, 0);
});

Deno.test("apiJson(): parses JSON; a body that is not JSON is ApiError 502, not a SyntaxError", async () => {
  await withServer(() => Response.json({ items: [1, 2] }), async () => {
    assert.deepEqual(await apiJson<{ items: number[] }>("/x"), { items: [1, 2] });
  });
  for (const text of ["<html>proxy error</html>", "", "{"]) {
    await withServer(() => new Response(text, { status: 200 }), async () => {
      const err = await failure(apiJson("/x"));
      assert.ok(err instanceof ApiError, JSON.stringify(text));
      assert.equal(err.status, 502);
    });
  }
  const err = await failure(readJson(new Response("nope")));
  assert.ok(err instanceof ApiError && err.status === 502);
});

Deno.test("request(): a json option is serialised with its content type; text answers stay text", async () => {
  const seen = await withServer(() => new Response(" token \n"), async () => {
    assert.equal(
      await apiText("/login", { method: "POST", json: { username: "a", password: "b" } }),
      " token \n",
    );
  });
  assert.equal(seen.headers.get("Content-Type"), "application/json");
  assert.deepEqual(JSON.parse(seen.body ?? ""), { username: "a", password: "b" });
});
