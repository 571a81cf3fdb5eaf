import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { classifyTool, decideApproval, type ApprovalRequest } from "../../lib/agent/approval.js";
import { bookingInfo, geocodeInfo } from "./fixtures.js";

const unannotated = { name: "send_mail", description: "", inputSchema: { type: "object" } };
const request = (tool = bookingInfo) => ({
  toolId: "b1",
  toolName: tool.name,
  arguments: { city: "Rom", nights: 2 },
  tool,
});

describe("approval", () => {
  test("classification: override, then annotations, then the default", () => {
    assert.equal(classifyTool(geocodeInfo, "geocode"), "read-only");
    assert.equal(classifyTool(bookingInfo, "book_hotel"), "side-effecting");
    assert.equal(classifyTool(unannotated, "send_mail"), "side-effecting");
    assert.equal(classifyTool(unannotated, "send_mail", { unannotated: "read-only" }), "read-only");
    assert.equal(classifyTool(bookingInfo, "book_hotel", { readOnly: ["book_hotel"] }), "read-only");
    assert.equal(classifyTool(geocodeInfo, "geocode", { sideEffecting: ["geocode"] }), "side-effecting");
    assert.equal(classifyTool(geocodeInfo, "geocode", { blocked: ["geocode"], readOnly: ["geocode"] }), "blocked");
    assert.equal(classifyTool(undefined, "x"), "side-effecting");
  });

  test("read-only runs without asking", async () => {
    let asked = 0;
    const outcome = await decideApproval(request(geocodeInfo), {}, () => {
      asked++;
      return true;
    });
    assert.deepEqual(outcome, { allowed: true, by: "read-only" });
    assert.equal(asked, 0);
  });

  test("side-effecting: the callback sees the resolved arguments and decides", async () => {
    const seen: ApprovalRequest[] = [];
    const yes = await decideApproval(request(), {}, (r) => {
      seen.push(r);
      return { approved: true };
    });
    assert.deepEqual(yes, { allowed: true, by: "callback" });
    assert.deepEqual(seen[0]?.arguments, { city: "Rom", nights: 2 });
    assert.equal(seen[0]?.safety, "side-effecting");

    const no = await decideApproval(request(), {}, async () => ({
      approved: false,
      feedback: "Bitte nur eine Nacht.",
    }));
    assert.equal(no.allowed, false);
    assert.ok(!no.allowed && no.by === "callback" && /abgelehnt: Bitte nur eine Nacht\./.test(no.message));
    const plainNo = await decideApproval(request(), {}, () => false);
    assert.ok(!plainNo.allowed && plainNo.feedback === undefined);
  });

  test("no callback, blocked, callback error, timeout: refused with a reason", async () => {
    const none = await decideApproval(request(), {});
    assert.ok(!none.allowed && none.by === "no-callback" && /Freigabe/.test(none.message));
    const blocked = await decideApproval(request(geocodeInfo), { blocked: ["geocode"] }, () => true);
    assert.ok(!blocked.allowed && blocked.by === "blocked");
    const broken = await decideApproval(request(), {}, () => {
      throw new Error("UI weg");
    });
    assert.ok(!broken.allowed && broken.by === "callback-error" && /UI weg/.test(broken.message));
    const slow = await decideApproval(request(), { timeoutMs: 20 }, () => new Promise<boolean>(() => {}));
    assert.ok(!slow.allowed && slow.by === "timeout" && /20 ms/.test(slow.message));
  });
});
