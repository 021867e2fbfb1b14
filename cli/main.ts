/**
 * The `vinculum` command line: run, view, validate, info and schema (docs/cli.md). `runCli` takes the
 * arguments and an I/O object and returns the exit code, so tests call it in-process;
 * cli/vinculum.ts wires it to the process. Exit codes: 0 ok, 1 internal error, 2 bad model or
 * usage (one line `error: …` on stderr), 3 a step failed (non-finite state, blow-up, failed solve)
 * or, with --strict, instability. The summary and the other results go to stdout; warnings,
 * progress and errors to stderr.
 */
import { Command, CommanderError, Option } from 'commander';
import { modelJsonSchema } from '../src/io/jsonSchema.js';
import { ModelError } from '../src/model/errors.js';
import { INTEGRATORS } from '../src/integrators/names.js';
import type { CliIo } from './io.js';
import { CliError, messageOf } from './common.js';
import { oneLine } from '../src/io/messages.js';
import { positiveNumber, positiveInteger, stepCap, outputFile, portNumber, reportFile } from './common.js';
import { loadModelFile, packageVersion, writeOutput } from './load.js';
import { info, DEFAULT_DURATION } from './info.js';
import { run, DEFAULT_MAX_STEPS, type RunOptions } from './run.js';
import { parseOutputs, OUTPUTS_HELP } from './outputs.js';
import { view, type ViewOptions } from './view.js';

export type { CliIo, AtomicWriter } from './io.js';
export { DEFAULT_DURATION } from './info.js';
export { DEFAULT_MAX_STEPS } from './run.js';

/** runs the command line on `argv` (without the node and script paths); resolves to the exit code */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let code = 0;
  const version = await packageVersion(io).catch(() => 'unknown');
  const program = new Command('vinculum')
    .description('simulate constrained mechanical systems described by JSON model files')
    .version(version, '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s), outputError: () => undefined,
    })
    .showSuggestionAfterError(true);

  const option = (flags: string, text: string, parse?: (s: string) => unknown) => {
    const o = new Option(flags, text);
    return parse ? o.argParser(parse) : o;
  };
  program.command('run')
    .description('simulate a model (default: the bundled demo) and print a summary')
    .argument('[model]', 'model file (JSON)')
    .addOption(option('--duration <s>',
      `simulated time in seconds (default: the model's, else ${DEFAULT_DURATION})`, positiveNumber))
    .addOption(option('--step <h>', "step size in seconds (default: the model's)", positiveNumber))
    .addOption(option('--integrator <name>', "integrator (default: the model's)").choices(INTEGRATORS))
    .addOption(option('--out <file>', 'write the trajectory to a .csv or .jsonl file', outputFile))
    .addOption(option('--every <k>', 'write every k-th step', positiveInteger).default(1))
    .addOption(option('--outputs <list>',
      'extra trajectory columns with --out: a comma list of the groups below, or all', parseOutputs))
    .addOption(option('--max-steps <n>', 'refuse a run of more steps than this (duration / step)', stepCap)
      .default(DEFAULT_MAX_STEPS, '1e8'))
    .addOption(option('--report <file>', 'write a self-contained HTML report (summary, 3-D replay, plots)',
      reportFile))
    .addOption(option('--strict', 'exit with code 3 when the run reports instability (energy growth)'))
    .addOption(option('-q, --quiet',
      'print no summary and no progress (warnings and errors still go to stderr)'))
    .addHelpText('after', OUTPUTS_HELP)
    .action(async (model: string | undefined, opts: RunOptions) => { code = await run(io, model, opts); });

  program.command('view')
    .description('serve the web viewer on 127.0.0.1 with a model (default: the bundled demo)')
    .argument('[model]', 'model file (JSON)')
    .addOption(option('--port <n>', 'the port on 127.0.0.1 (0: any free port)', portNumber).default(8080))
    .addOption(option('--open', 'open the page in the system browser'))
    .action(async (model: string | undefined, opts: ViewOptions) => { code = await view(io, model, opts); });

  program.command('validate')
    .description('check a model file')
    .argument('<model>', 'model file (JSON)')
    .action(async (file: string) => {
      const { model } = await loadModelFile(io, file);
      const { components, dof, nRows } = model;
      io.stdout(`ok: ${components.length} components, ${dof} DOF, ${nRows} constraint rows\n`);
    });

  program.command('info')
    .description('describe a model: degrees of freedom, components, markers, forces, settings')
    .argument('<model>', 'model file (JSON)')
    .action(async (file: string) => { io.stdout(info(file, await loadModelFile(io, file))); });

  program.command('schema')
    .description('print the JSON Schema of the model format, or write it to a file')
    .option('--out <file>', 'write the schema to this file')
    .action(async (opts: { out?: string }) => {
      const text = `${JSON.stringify(modelJsonSchema(), null, 2)}\n`;
      if (!opts.out) { io.stdout(text); return; }
      await writeOutput(io, opts.out, text);
      io.stdout(`wrote ${opts.out}\n`);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    return report(io, e);
  }
}

/** prints an error on one line and returns its exit code */
function report(io: CliIo, e: unknown): number {
  if (e instanceof CommanderError) {
    // help and version exit 0; the help shown for a missing command is a usage error
    if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(e.code)) {
      return e.exitCode === 0 ? 0 : 2;
    }
    io.stderr(`error: ${oneLine(e.message.replace(/^error:\s*/, ''))}\n`);
    return 2;
  }
  if (e instanceof ModelError) { io.stderr(`error: ${oneLine(e.message)}\n`); return 2; }
  if (e instanceof CliError) { io.stderr(`error: ${oneLine(e.message)}\n`); return e.exitCode; }
  io.stderr(`error: internal error: ${oneLine(messageOf(e))}\n`);
  return 1;
}
