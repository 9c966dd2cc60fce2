#!/usr/bin/env node
// Runs the TypeScript CLI in-process through tsx's loader (no child process, no build step).
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/bin.ts");
process.exitCode = await main(process.argv.slice(2));
