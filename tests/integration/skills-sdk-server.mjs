// SPDX-License-Identifier: GPL-3.0-or-later
//
// A skills server made with the Skills extension's own SDK
// (@olaservo/ext-skills, pinned in tests/package.json) on the v2 MCP
// TypeScript SDK, over stdio: the skills of the folder given as the first
// argument.
import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { discoverSkills, registerSkillResources } from "@olaservo/ext-skills/server";

const dir = process.argv[2];
const skillMap = discoverSkills(dir);
const server = new McpServer({ name: "skills-sdk", version: "1.0.0" },
                             { capabilities: { resources: {} } });

registerSkillResources(server, skillMap, dir, { template: true });
await server.connect(new StdioServerTransport());
