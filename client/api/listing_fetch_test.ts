import assert from "node:assert/strict";
import { fetchListing, type ListingAnswer } from "./listing_fetch.ts";

/** fetchListing() against a fake fetch answering `answer`; returns the outcome and the X-Auth header sent. */
async function withAnswer(
  answer: () => Response,
  token: string,
): Promise<{ got: ListingAnswer; auth: string | null }> {
  const realFetch = globalThis.fetch;
  let auth: string | null = "unset";
  globalThis.fetch = (_input: RequestInfo | URL, init?: RequestInit) => {
    auth = new Headers(init?.headers).get("X-Auth");
    return Promise.resolve(answer());
  };
  try {
    return { got: await fetchListing("/api/resources/a/", token), auth };
  } finally {
    globalThis.fetch = realFetch;
  }
}

Deno.test("fetchListing(): the text, the status and the renewal flag as request() reads them", async () => {
  const renew = { "X-Renew-Token": "true" };
  const table: [string, () => Response, string, ListingAnswer][] = [
    ["ok", () => new Response('{"items":[]}'), "tok", {
      ok: true,
      status: 200,
      text: '{"items":[]}',
      renew: false,
    }],
    ["renewal asked", () => new Response("{}", { headers: renew }), "tok", {
      ok: true,
      status: 200,
      text: "{}",
      renew: true,
    }],
    ["renewal without a token", () => new Response("{}", { headers: renew }), "", {
      ok: true,
      status: 200,
      text: "{}",
      renew: false,
    }],
    ["an error keeps its trimmed text", () => new Response(" 404 Not Found\n", { status: 404 }), "tok", {
      ok: false,
      status: 404,
      text: "404 Not Found",
      renew: false,
    }],
    ["an empty error body is the status", () => new Response("", { status: 401 }), "tok", {
      ok: false,
      status: 401,
      text: "401",
      renew: false,
    }],
    [
      "no answer",
      () => {
        throw new TypeError("network");
      },
      "tok",
      { ok: false, status: 0, text: "", renew: false },
    ],
  ];
  for (const [label, answer, token, want] of table) {
    const { got, auth } = await withAnswer(answer, token);
    assert.deepEqual(got, want, label);
    assert.equal(auth, token || null, `${label}: X-Auth`);
  }
});
