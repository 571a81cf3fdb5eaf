// The instructor's link in `npm run klassenraum`: the guide tells instructors to renew a link that got out with
// --neuer-kursleitungs-link, but klassenraum did not know the option nor pass it to its board; and the link
// was printed amid the room's lines, which instructors often show on the projector. Now klassenraum takes the
// option and gives it to the board's first start only (a restart keeps the link), and the board and
// klassenraum print the link apart, after a German warning. (klassenraum's full run is in the llama-server
// stage: test/llama-server/klassenraum.test.ts.)
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { COMMANDS } from "../../scripts/commands.js";
import { runCommand } from "../../scripts/node/command.js";
import { UsageError } from "../../scripts/node/parse-args-german.js";
import { roomBoardArgs } from "../../scripts/apps/klassenraum/board-args.js";
import { startBoardProcess } from "../helpers/board-process.js";

const dir = mkdtempSync(join(tmpdir(), "klassenraum-link-"));
const ROOM = "http://kurs-pc.local:8000/hub/login";
after(() => rmSync(dir, { recursive: true, force: true }));

test("klassenraum knows --neuer-kursleitungs-link (its usage names it)", async () => {
  const command = await COMMANDS.klassenraum();
  assert.ok("neuer-kursleitungs-link" in command.options);
  assert.match(command.usage, /--neuer-kursleitungs-link/);
  try {
    await runCommand(command, ["--neuer-kursleitungs-link", "--help"], new AbortController().signal);
    assert.fail("--help ran the room");
  } catch (error) {
    assert.ok(error instanceof UsageError && error.exitCode === 0, String(error));
  }
});

/** The key of the instructor's link the board printed (the port changes with each start). */
const linkOf = (output: string) => /Kursleitung:\s+http:\S+#kursleitung=(\S+)/.exec(output)?.[1];

test("the board klassenraum starts makes a new link with the option, keeps it without; printed apart with a warning", async () => {
  const data = join(dir, "ergebnisse.json");
  const args = (newInstructorLink: boolean) =>
    roomBoardArgs({ port: 0, code: "raum-link-test-9", roomUrl: ROOM, data, newInstructorLink });
  assert.ok(args(true).includes("--neuer-kursleitungs-link"));
  assert.ok(!args(false).includes("--neuer-kursleitungs-link"));

  const first = await startBoardProcess(args(false));
  const firstLink = linkOf(first.output());
  await first.stop();
  const restarted = await startBoardProcess(args(false));
  assert.equal(linkOf(restarted.output()), firstLink, "a restart keeps the link");
  await restarted.stop();
  const renewed = await startBoardProcess(args(true));
  const output = renewed.output();
  await renewed.stop();
  assert.ok(firstLink && linkOf(output) && linkOf(output) !== firstLink, "the option makes a new link");

  // The link stands after the room's lines (and after "Beenden"), below a warning not to show it.
  const lines = output.split("\n");
  const link = lines.findIndex((l) => /Kursleitung:\s+http/.test(l));
  assert.match(lines[link - 1]!, /NICHT AUF DEM BEAMER ZEIGEN/);
  assert.equal(lines[link - 2], "");
  for (const room of [/Für den Beamer:/, /Beitrittscode:/, /Teilnehmende:/, /Beenden mit Strg\+C/])
    assert.ok(lines.findIndex((l) => room.test(l)) < link - 2, `${room} comes before the link`);
});
