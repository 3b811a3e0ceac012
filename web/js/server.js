"use strict";
// Talking to the server: the JSON API's calls, its streams and its refusals.

// ---- talking to the server ------------------------------------------------
// What went wrong talking to the server; `reason` is the server's own
// machine-readable reason when it refused the request (unset when it could
// not be reached or did not explain).
class PlaygroundError extends Error {
  constructor(message, reason = null) {
    super(message);
    this.reason = reason;
  }
}

// POSTs `request` to `/v1/<rpc>`: the server's response, or an error
// saying that it cannot be reached.
async function post(rpc, request) {
  try {
    return await fetch(`/v1/${rpc}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
  } catch {
    throw new PlaygroundError(tr("error.unreachable"));
  }
}

async function call(rpc, request) {
  const response = await post(rpc, request);
  let body = null;
  try { body = await response.json(); } catch { body = null; }
  if (response.ok && body !== null) return body;
  throw refusal(rpc, response.status, body);
}
// The error of a refused call: the server's reason, message and field
// (`body`), or its HTTP status when it did not explain.
function refusal(rpc, status, body) {
  if (!body?.reason) {
    return new PlaygroundError(tr("error.unexplained", { status }));
  }
  // The reason in the page's language where the catalog says it (in
  // English, the server's own message: it names the details); else the
  // server's message.
  const message = i18n.lang !== "en" ? known(`reason.${body.reason}`) ?? body.message : body.message;
  const where = body.field ? tr("error.field", { field: body.field }) : "";
  return new PlaygroundError(tr("error.refused", { rpc, message, where, reason: body.reason }), body.reason);
}

// Calls a streaming RPC over server-sent events, handing each message to
// `each` as it comes; ends with the stream (a refusal, before or during
// it, is thrown as `call`'s are).
async function stream(rpc, request, each) {
  const response = await post(rpc, request);
  if (!response.ok || !response.body) {
    let body = null;
    try { body = await response.json(); } catch { body = null; }
    throw refusal(rpc, response.status, body);
  }
  await readEvents(response, (message, kind) => {
    if (kind === "error") throw refusal(rpc, 200, message);
    each(message);
  });
}

// Reads the server-sent events of `response`, handing each event's JSON
// and its kind (`event:`, "message" when unnamed) to `each`, until the
// stream ends (true) or `stop` says to leave it (false).
async function readEvents(response, each, stop = () => false) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return true;
    if (stop()) return false;
    buffer += value;
    let at;
    while ((at = buffer.indexOf("\n\n")) >= 0) {
      const lines = buffer.slice(0, at).split("\n");
      buffer = buffer.slice(at + 2);
      const data = lines.filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("\n");
      if (!data) continue;
      const kind = lines.find((line) => line.startsWith("event: "))?.slice(7) ?? "message";
      each(JSON.parse(data), kind);
    }
  }
}

let retry = null;
function showError(error, again) {
  $("error-text").textContent = error instanceof PlaygroundError ? error.message : tr("error.unexpected", { message: error?.message ?? error });
  retry = again ?? null;
  $("retry").hidden = !retry;
  $("error").hidden = false;
}
function clearError() {
  $("error").hidden = true;
  retry = null;
}
