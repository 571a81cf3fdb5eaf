// `npm run klassenraum [-- --host 0.0.0.0 --allowed-host kurs-pc.local] [--uebung]` — one command for the
// instructor: the class server (llama.cpp's llama-server with the configured model), the class board and
// the Klassenraum-Hub, started together; prints one URL and its QR code for the room and stops all three on
// Ctrl+C (or SIGTERM, or SIGHUP when the terminal closes). The participants' kernels run on this machine, so the
// class server and the board stay on loopback; only the hub is reachable from the room. The class server
// needs an API key (made at each start and handed to the kernels as LLM_API_KEY), so no other program on this
// machine uses it. A class server or board that dies (e.g. killed for memory) is started again with a backoff
// and the others keep running; only a hub that ends stops the classroom.
import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { join } from "node:path";
import QRCode from "qrcode";
import { findProjectRoot, loadConfig, tinyModelPaths } from "../../../lib/config.js";
import { errorText } from "../../../lib/util.js";
import { findLlamaTools } from "../../dev/llama-build.js";
import { DEFAULT_HUB_MAX, DEFAULT_HUB_PORT, parseHubArgs, wholeNumber } from "../hub/args.js";
import { boardDataPath, classJoinCode } from "../hub/join-code.js";
import { instructorBlock } from "../board/instructor.js";
import { roomBoardArgs } from "./board-args.js";
import { freePort } from "../../node/free-port.js";
import { hubRoomUrl, jupyterhubMissing } from "../hub/start.js";
import { DEFAULT_CLASS_CONTEXT, DEFAULT_CLASS_PARALLEL, GB, modelShape, planClassServer } from "./class-sizing.js";
import {
  kitCommand,
  ServiceStartError,
  startService,
  superviseService,
  waitForHttp,
  waitForLine,
  type Service,
  type SupervisedService,
} from "./services.js";
import { practiceEnvironment } from "../models/model-help.js";
import { defineCommand, type CommandInput } from "../../node/command.js";

const OPTIONS = {
  port: {
    type: "string",
    default: String(DEFAULT_HUB_PORT),
    value: "P",
    help: "Port des Hubs für den Raum (Standard 8000; 0 = ein freier)",
  },
  host: {
    type: "string",
    default: "127.0.0.1",
    value: "H",
    help: "Adresse des Hubs (Standard 127.0.0.1; für den Raum z. B. 0.0.0.0 mit --allowed-host)",
  },
  "allowed-host": {
    type: "string",
    multiple: true,
    value: "N",
    help: "Host-Name, unter dem der Raum den Hub erreicht (Pflicht bei --host 0.0.0.0)",
  },
  code: { type: "string", value: "C", help: "Beitrittscode (wie bei npm run hub)" },
  max: {
    type: "string",
    default: String(DEFAULT_HUB_MAX),
    value: "N",
    help: "höchstens so viele Teilnehmende (wie bei npm run hub)",
  },
  root: { type: "string", value: "ORDNER", help: "Ordner der Teilnehmenden (wie bei npm run hub)" },
  modell: {
    type: "string",
    value: "DATEI",
    help: "GGUF des Klassen-Servers (Standard: LLM_MODEL_PATH bzw. models/…8B…gguf)",
  },
  uebung: { type: "boolean", help: "winziges Testmodell statt des echten (Probe ohne Modell-Download)" },
  parallel: {
    type: "string",
    default: String(DEFAULT_CLASS_PARALLEL),
    value: "N",
    help: "gleichzeitige Anfragen des Klassen-Servers (Standard 4; mit GPU mehr, siehe Leitfaden)",
  },
  kontext: {
    type: "string",
    default: String(DEFAULT_CLASS_CONTEXT),
    value: "T",
    help: "Kontext je Anfrage in Tokens (Standard 8192)",
  },
  "gpu-layers": {
    type: "string",
    value: "N",
    help: "Schichten auf die GPU (llama-server -ngl; nur mit GPU-Build über LLAMA_SERVER_BIN)",
  },
  "llm-port": {
    type: "string",
    default: "8080",
    value: "P",
    help: "Port des Klassen-Servers (Standard 8080), nur auf diesem Rechner",
  },
  "board-port": {
    type: "string",
    default: "8790",
    value: "P",
    help: "Port des Boards (Standard 8790), nur auf diesem Rechner",
  },
  "board-daten": {
    type: "string",
    value: "DATEI",
    help: "Ergebnisdatei des Boards (Standard .cache/board/ergebnisse.json)",
  },
  "neuer-kursleitungs-link": {
    type: "boolean",
    help: "einen neuen Kursleitungs-Link fürs Board machen (der alte gilt dann nicht mehr), z. B. wenn er weitergegeben wurde",
  },
} as const;

const count = (text: string, flag: string, min: number, max: number) =>
  wholeNumber(text, flag, min, max, command.usage);

function llamaServerBinary(): string {
  const own = process.env.LLAMA_SERVER_BIN;
  if (own) return own;
  const tools = findLlamaTools();
  if ("bin" in tools) return join(tools.bin, "llama-server");
  throw new ServiceStartError(
    `llama-server fehlt (${tools.missing}): einmal 'npm run llama:build' (10–20 Minuten) oder LLAMA_SERVER_BIN=/pfad/zu/llama-server setzen (z. B. ein CUDA-Build).`,
  );
}

export const command = defineCommand({
  name: "klassenraum",
  invocation: "npm run klassenraum --",
  summary: "Klassen-Server (llama-server), Klassen-Board und Klassenraum-Hub zusammen auf diesem Rechner.",
  options: OPTIONS,
  stopGraceMs: 60_000,
  run: ({ values, signal }) => main(values, signal),
});

async function main(values: CommandInput<typeof OPTIONS>["values"], signal: AbortSignal): Promise<number> {
  const kitRoot = findProjectRoot();
  let parallel: number, context: number, llmPort: number, boardPort: number;
  let hubArgs: ReturnType<typeof parseHubArgs>;
  try {
    parallel = count(values.parallel, "--parallel", 1, 64);
    context = count(values.kontext, "--kontext", 512, 131_072);
    llmPort = count(values["llm-port"], "--llm-port", 0, 65535);
    boardPort = count(values["board-port"], "--board-port", 0, 65535);
    if (values["gpu-layers"] !== undefined) count(values["gpu-layers"], "--gpu-layers", 0, 999);
    // The hub's own rules (loopback unless --allowed-host, --max, --code), checked before anything starts.
    hubArgs = parseHubArgs(
      [
        "--port",
        values.port,
        "--host",
        values.host,
        "--max",
        values.max,
        ...(values.code ? ["--code", values.code] : []),
        ...(values["allowed-host"] ?? []).flatMap((h) => ["--allowed-host", h]),
      ],
      kitRoot,
    );
  } catch (error) {
    console.error(errorText(error));
    return 2;
  }
  const model = values.uebung ? tinyModelPaths(kitRoot).gguf : (values.modell ?? loadConfig().llmModelPath);
  const problems = [
    jupyterhubMissing(),
    existsSync(model)
      ? undefined
      : `Modelldatei fehlt: ${model} – 'npm run models:pull', --modell DATEI.gguf oder zum Ausprobieren --uebung.`,
  ].filter((p): p is string => p !== undefined);
  let llamaServer: string;
  try {
    llamaServer = llamaServerBinary();
  } catch (error) {
    problems.push(errorText(error));
    llamaServer = "";
  }
  if (problems.length) {
    console.error(problems.join("\n"));
    return 1;
  }

  const env = values.uebung ? await practiceEnvironment() : { ...process.env };
  const code = await classJoinCode(values["board-daten"] ?? boardDataPath(kitRoot), values.code, console.error);
  const services: (Service | SupervisedService)[] = [];
  let stopping = false;
  const stopAll = async () => {
    stopping = true;
    // The hub first (it ends the participants' kernels), then the board and the class server.
    for (const s of [...services].reverse()) await s.stop();
  };
  const stopped = new Promise<number>((resolve) =>
    signal.addEventListener("abort", () => void stopAll().then(() => resolve(0)), { once: true }),
  );
  // Only the kernels of this classroom may use the class server (the hub passes LLM_* on to them).
  const apiKey = randomBytes(24).toString("hex");
  const say = (line: string) => console.error(line);

  try {
    if (llmPort === 0) llmPort = await freePort();
    const threads = loadConfig(env).llmThreads ?? Math.max(1, availableParallelism() - 1);
    // Settings that fit this machine with --max participants (class-sizing.ts): a q8_0 KV cache, the repacked
    // weights only when there is room for them.
    const plan = planClassServer(
      statSync(model).size,
      await modelShape(model),
      parallel * context,
      totalmem(),
      Number(values.max),
    );
    console.log(`Klassen-Server startet (${parallel} gleichzeitige Anfragen, ${context} Tokens Kontext je Anfrage) …`);
    console.log(
      `  Speicher: etwa ${(plan.bytes / GB).toFixed(1).replace(".", ",")} GB (${plan.kv === "q8_0" ? "KV-Cache q8_0: halb so groß wie fp16, kaum Qualitätsverlust" : "KV-Cache fp16: die Kopfgröße des Modells lässt q8_0 nicht zu"}` +
        (plan.repack
          ? ")"
          : "; --no-repack: ohne die umsortierte Kopie der Gewichte – spart ~2/3 der Modellgröße, liest Prompts auf Prozessoren mit AMX/AVX-512 langsamer ein)"),
    );
    const startLlm = () =>
      startService(
        "Klassen-Server (llama-server)",
        llamaServer,
        [
          "-m",
          model,
          "--host",
          "127.0.0.1",
          "--port",
          String(llmPort),
          "-c",
          String(parallel * context),
          "--parallel",
          String(parallel),
          "-t",
          String(threads),
          "--jinja",
          "--no-webui",
          "--api-key",
          apiKey,
          ...plan.flags,
          ...(values["gpu-layers"] ? ["-ngl", values["gpu-layers"]] : []),
        ],
        env,
        kitRoot,
      );
    const llmReady = (s: Service) => waitForHttp(s, `http://127.0.0.1:${llmPort}/health`, 10 * 60_000);
    const llm = startLlm();
    services.push(llm);
    await llmReady(llm);
    services[services.indexOf(llm)] = superviseService(llm, startLlm, llmReady, say);
    const llmUrl = `http://127.0.0.1:${llmPort}/v1`;
    // The board starts before the hub but shows the room the hub's login page: so the hub's port is fixed here.
    const hubPort = hubArgs.port === 0 ? await freePort(values.host) : hubArgs.port;
    const plannedRoomUrl = hubRoomUrl(hubArgs.bind.urlHost, hubPort);

    const boardCmd = kitCommand(kitRoot, "board");
    const startBoard = (newInstructorLink = false) =>
      startService(
        "Klassen-Board",
        boardCmd.command,
        [
          ...boardCmd.args,
          ...roomBoardArgs({
            port: boardPort,
            code,
            roomUrl: plannedRoomUrl,
            data: values["board-daten"],
            newInstructorLink,
          }),
        ],
        env,
        kitRoot,
      );
    const boardReady = (s: Service) => waitForLine(s, /Für den Beamer:\s+(http:\S+)/, 60_000);
    const board = startBoard(values["neuer-kursleitungs-link"] === true);
    services.push(board);
    const boardUrl = (await boardReady(board)).replace(/\/$/, "");
    boardPort = Number(new URL(boardUrl).port); // a restart keeps the address the kernels know
    // The kernels share this machine, so the board trusts only its instructor's link (kept in its file).
    const instructorUrl = await waitForLine(board, /Kursleitung:\s+(http:\S+)/, 60_000);
    services[services.indexOf(board)] = superviseService(
      board,
      () => startBoard(),
      async (s) => void (await boardReady(s)),
      say,
    );

    const hubCmd = kitCommand(kitRoot, "hub");
    const hubArgv = [
      ...hubCmd.args,
      "--port",
      String(hubPort),
      "--host",
      values.host,
      "--code",
      code,
      "--max",
      values.max,
      "--llm-url",
      llmUrl,
      "--board",
      boardUrl,
      "--board-daten",
      values["board-daten"] ?? boardDataPath(kitRoot),
      ...(values.root ? ["--root", values.root] : []),
      ...(values["allowed-host"] ?? []).flatMap((h) => ["--allowed-host", h]),
    ];
    const hub = startService("Klassenraum-Hub", hubCmd.command, hubArgv, { ...env, LLM_API_KEY: apiKey }, kitRoot);
    services.push(hub);
    const roomUrl = await waitForLine(hub, /Für den Raum:\s+(http:\S+)/, 3 * 60_000);
    const warnings = hub
      .output()
      .split("\n")
      .filter((l) => l.startsWith("WARNUNG"));

    console.log(
      [
        "",
        "Klassenraum läuft.",
        `  Für den Raum:     ${roomUrl}`,
        `  Beitrittscode:    ${code}`,
        `  Klassen-Board:    ${boardUrl}   (für den Beamer)`,
        `  Klassen-Server:   ${llmUrl}   (${model.split("/").pop()}, ${parallel} gleichzeitig)`,
        ...warnings.map((w) => `  ${w}`),
        ...(values.host === "127.0.0.1"
          ? [
              "  Nur auf diesem Rechner erreichbar – für den Raum: --host 0.0.0.0 --allowed-host <Name oder IP dieses Rechners>",
            ]
          : []),
        "",
        await QRCode.toString(roomUrl, { type: "terminal", small: true }),
        ...instructorBlock(instructorUrl, 20),
        "",
        "Beenden mit Strg+C (beendet alle drei).",
      ].join("\n"),
    );
    // The class server and the board come back by themselves; without the hub the room has nothing.
    await new Promise<void>((resolve) => hub.child.once("exit", () => resolve()));
    if (stopping) return stopped;
    console.error(`${hub.name} hat sich beendet:\n${hub.output().slice(-1500)}\nDie anderen werden auch beendet.`);
    await stopAll();
    return 1;
  } catch (error) {
    if (stopping) return stopped;
    console.error(
      error instanceof ServiceStartError ? error.message : `Der Klassenraum konnte nicht starten: ${errorText(error)}`,
    );
    await stopAll();
    return 1;
  }
}
