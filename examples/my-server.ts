// A tiny MCP server of your own with one tool, `waehrung` (currency conversion at fixed example rates),
// spoken over stdio. examples/agent-own-mcp-server.ts starts it as a child process; any MCP client
// (MCP Inspector, Claude Desktop) can too:  npx tsx examples/my-server.ts
// stdout belongs to the protocol: log to stderr only.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

/** Euro per unit of each currency (fixed example rates, not today's). */
const EURO_PER_UNIT = { EUR: 1, CHF: 1.06, GBP: 1.17, USD: 0.92, NOK: 0.085 } as const;
const currency = z.enum(Object.keys(EURO_PER_UNIT) as [keyof typeof EURO_PER_UNIT, ...(keyof typeof EURO_PER_UNIT)[]]);

const server = new McpServer({ name: "eigene-werkzeuge", version: "0.1.0" });

server.registerTool(
  "waehrung",
  {
    title: "Währung umrechnen",
    description: "Rechnet einen Betrag von einer Währung in eine andere um (feste Beispielkurse). Ergebnis in betrag.",
    inputSchema: { betrag: z.number().describe("Betrag in der Ausgangswährung"), von: currency, nach: currency },
    outputSchema: { betrag: z.number(), waehrung: z.string(), kurs: z.number() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  ({ betrag, von, nach }) => {
    const kurs = EURO_PER_UNIT[von] / EURO_PER_UNIT[nach];
    const result = {
      betrag: Math.round(betrag * kurs * 100) / 100,
      waehrung: nach,
      kurs: Math.round(kurs * 10_000) / 10_000,
    };
    return {
      content: [{ type: "text", text: `${betrag} ${von} = ${result.betrag} ${nach}` }],
      structuredContent: result,
    };
  },
);

await server.connect(new StdioServerTransport());
process.stdin.on("end", () => process.exit(0)); // the client is gone
console.error("eigene-werkzeuge: bereit (stdio)");
