#!/usr/bin/env node
// The bin only loads the compiled CLI; all logic lives in src/cli.
import { main } from '../dist/cli/main.js';
main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
