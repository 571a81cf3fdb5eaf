// The kit's patch of tslab (patches/tslab+*.patch): the kernel handles one shell request at a time, so
// during "Run All" it reports busy until the last queued cell has run (issue 40, item 1). Unpatched, a
// second request got its busy status at once and the first one's idle arrived while the second still
// ran: the notebook's indicator said "idle" in the middle of Run All.
// Talks to the real kernel (the project's tslab, as registered in .jupyter-prefix) over the Jupyter
// wire protocol (test/helpers/tslab-kernel.ts).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { executeContent, startTslabKernel, until, type TslabKernel } from "../helpers/tslab-kernel.js";

let kernel: TslabKernel;

before(async () => {
  kernel = await startTslabKernel();
});

after(() => kernel?.stop());

test("two cells sent back to back: busy, idle, busy, idle – never idle while the second one waits or runs", async () => {
  const shell = kernel.client();
  kernel.iopub.length = 0;
  const first = await shell.request(
    "execute_request",
    executeContent('await new Promise((r) => setTimeout(r, 500));\nconsole.log("erste fertig");'),
  );
  const second = await shell.request("execute_request", executeContent('console.log("zweite läuft");'));
  const idleOf = (id: string) =>
    kernel.iopub.some(
      (m) => m.header.msg_type === "status" && m.content.execution_state === "idle" && m.parent_header.msg_id === id,
    );
  assert.ok(await until(() => idleOf(first) && idleOf(second), 120_000), "both cells ran");

  const who = (id: string | undefined) => (id === first ? "1" : id === second ? "2" : "?");
  const events = kernel.iopub
    .filter((m) => m.header.msg_type === "status" || m.header.msg_type === "stream")
    .map((m) =>
      m.header.msg_type === "status"
        ? `${String(m.content.execution_state)}(${who(m.parent_header.msg_id)})`
        : `out(${who(m.parent_header.msg_id)})`,
    );
  assert.deepEqual(events, ["busy(1)", "out(1)", "idle(1)", "busy(2)", "out(2)", "idle(2)"]);
});
