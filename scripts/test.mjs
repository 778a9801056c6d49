// `npm test`: the linter and the formatter's check, the type check, the build, vitest, the Chromium suite
// and the engines suite, each an npm script of its own (package.json), side by side where nothing orders
// them (STEPS below). Most of a browser suite's time is waiting (timers, servers, frames loading), so on
// two cores the suites share the machine: run one after the other, they kept it busy 44 % of the time.
// Each step's output is kept whole and printed when the step ends (a failure reads as it does alone), and
// kept in reports/logs/STEP.log; the exit code is the first failed step's. `node scripts/test.mjs unit
// e2e` runs some steps alone, with those they need.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * Each step: its npm script, the steps it needs (it runs only once they passed: the suites run dist/),
 * and those it starts after, whatever their outcome: the engines suite waits for vitest, so that on two
 * cores vitest's computing (its fuzz tests, its thousand tokenisations) and the two browser suites do
 * not all share the cores at once; the Chromium suite, the longest, starts with vitest. A `background`
 * step runs at a lower priority (nice 10): the linter and the type check, which nothing waits for, take
 * the cores the build and the suites leave (the build, which all the suites wait for, took 57 s beside
 * them at the same priority on a busy machine, 8 s alone).
 */
const STEPS = {
  lint: { script: 'lint', needs: [], after: [], background: true },
  typecheck: { script: 'typecheck', needs: [], after: [], background: true },
  build: { script: 'build', needs: [], after: [] },
  unit: { script: 'test:unit', needs: ['build'], after: [] },
  e2e: { script: 'test:e2e', needs: ['build'], after: [] },
  engines: { script: 'test:engines', needs: ['build'], after: ['unit'] },
};

const asked = process.argv.slice(2);
for (const name of asked) {
  if (!(name in STEPS)) {
    console.error(`No step ${name}: the steps are ${Object.keys(STEPS).join(', ')}.`);
    process.exit(2);
  }
}
/** The steps asked for and those they wait for; all of them when none is named. */
const chosen = new Set();
const choose = (name) => {
  chosen.add(name);
  STEPS[name].needs.forEach(choose);
};
(asked.length > 0 ? asked : Object.keys(STEPS)).forEach(choose);

const started = performance.now();
/** The children's user + system seconds from bash's `times` (its second line: `1m2.5s 0m3.1s`), or undefined. */
const cpuSeconds = (text) => {
  const line = text.trim().split('\n')[1] ?? '';
  const parts = line
    .split(' ')
    .map((word) => word.replace(',', '.').split(/[ms]/)) // bash writes the locale's decimal mark
    .filter((p) => p.length === 3)
    .map(([minutes, secs]) => Number(minutes) * 60 + Number(secs));
  return parts.length === 2 && parts.every(Number.isFinite) ? parts[0] + parts[1] : undefined;
};
/**
 * Where the machine allows it, each step runs in a cpuacct control group of its own, whose count takes in
 * every process the step started, the browsers' included: Chromium's renderers and WebKit's web processes
 * are not waited for by the step, so `times` misses them (it told 766 CPU s of a run that kept two cores
 * busy for 614 s). The groups are made inside this process's own (its CPU limits stay theirs); where cpu
 * and cpuacct are one hierarchy, a background step's group gets the weight nice 10 gives (a group of
 * its own would otherwise weigh as much as the build's). Elsewhere (no cgroup v1 cpuacct, or not
 * writable), `times`, marked as a floor.
 */
const CPUACCT = (() => {
  try {
    const line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .map((l) => /^\d+:([^:]*):(.*)$/.exec(l))
      .find((m) => m?.[1].split(',').includes('cpuacct'));
    const root = '/sys/fs/cgroup/cpuacct';
    const own = line && line[2] !== '/' ? `${root}${line[2]}` : root;
    // In a container the hierarchy is mounted at its own group, which /proc names from the host's root.
    return line ? (existsSync(own) ? own : root) : undefined;
  } catch {
    return undefined; // no /proc (not Linux)
  }
})();
const GROUP = 'payframe-test-';
/** Whether the run whose pid a group's name holds still runs (its groups are not this run's to sweep). */
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};
// Groups a run left (interrupted while a process still ran), once empty and their run gone.
if (CPUACCT) {
  try {
    for (const old of readdirSync(CPUACCT).filter((entry) => entry.startsWith(GROUP))) {
      if (alive(Number(old.slice(GROUP.length).split('-')[0]))) continue;
      try {
        rmdirSync(`${CPUACCT}/${old}`);
      } catch {
        // still holds a process (a daemon a test started outside the step's process group)
      }
    }
  } catch {
    // no such hierarchy here
  }
}
const groupOf = (name, background) => {
  if (!CPUACCT) return undefined;
  const dir = `${CPUACCT}/${GROUP}${process.pid}-${name}`;
  try {
    mkdirSync(dir);
    // cpu.shares 110 against 1024: the weight of nice 10 against nice 0. Absent where cpu is a hierarchy of its own.
    if (background && existsSync(`${dir}/cpu.shares`)) writeFileSync(`${dir}/cpu.shares`, '110');
    return dir;
  } catch {
    return undefined;
  }
};
const groupSeconds = (dir) => {
  try {
    return Number(readFileSync(`${dir}/cpuacct.usage`, 'utf8')) / 1e9;
  } catch {
    return undefined;
  }
};
const removeGroup = (dir) => {
  try {
    rmdirSync(dir); // empty once every process of the step is gone
  } catch {
    // a process of the step outlived it: the group stays until the next run finds it empty
  }
};
const seconds = (from) => `${((performance.now() - from) / 1000).toFixed(1)} s`;
// Colours as in a terminal when the run is in one (the steps write to a pipe).
const env = process.stdout.isTTY && !process.env.NO_COLOR ? { ...process.env, FORCE_COLOR: '1' } : process.env;
mkdirSync('reports/logs', { recursive: true });

/** @type {Map<string, Promise<number>>} */
const runs = new Map();
/** @type {Map<import('node:child_process').ChildProcess, string>} */
const children = new Map();
/** @type {{ name: string, code: number | string, time: string, cpu?: number, floor?: number }[]} */
const ended = [];
/** @type {Map<string, string | undefined>} Each started step's control group. */
const groups = new Map();

/** Set by a signal to the exit code it gives (128 + its number): no step starts after it. */
let interrupted = 0;

function run(name) {
  if (runs.has(name)) return runs.get(name);
  const step = STEPS[name];
  const waits = step.after.filter((other) => chosen.has(other));
  const result = Promise.all([...step.needs.map(run), ...waits.map(run)]).then((codes) => {
    const failed = step.needs.filter((_, i) => codes[i] !== 0);
    if (interrupted || failed.length > 0) {
      ended.push({ name, code: 'not run', time: '' });
      if (!interrupted) console.log(`\n── ${name}: not run (${failed.join(', ')} failed)`);
      return 1;
    }
    const from = performance.now();
    console.log(`── ${name} started (npm run ${step.script}) at ${seconds(started)}`);
    // Its own process group: an interrupted run stops every process a step started.
    // Through bash, whose `times` then tells the CPU seconds of every process the step waited for (on fd 3).
    const group = groupOf(name, step.background);
    groups.set(name, group);
    // bash joins the step's group before npm starts: every process it starts is counted there.
    const join = group ? `echo $$ > ${group}/cgroup.procs 2>/dev/null; ` : '';
    const script = ['bash', '-c', `${join}npm run --silent "$0"; s=$?; times >&3; exit $s`, step.script];
    // A background step starts under nice, so that every process it forks has its priority from birth.
    const [command, ...args] = step.background ? ['nice', '-n', '10', ...script] : script;
    const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    children.set(child, name);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const times = [];
    child.stdio[3].on('data', (chunk) => times.push(chunk));
    return new Promise((resolve) => {
      child.on('close', (status, signal) => {
        children.delete(child);
        const code = status ?? 1;
        const text = Buffer.concat(output).toString('utf8');
        writeFileSync(`reports/logs/${name}.log`, text);
        const counted = group ? groupSeconds(group) : undefined;
        if (group) removeGroup(group);
        const floor = cpuSeconds(Buffer.concat(times).toString());
        // A group that counted less than `times` did not hold the step (bash could not join it).
        const cpu = counted !== undefined && floor !== undefined && counted >= floor ? counted : undefined;
        ended.push({ name, code: signal ?? code, time: seconds(from), cpu, floor: cpu === undefined ? floor : undefined });
        const verdict = code === 0 ? 'passed' : `FAILED (exit ${signal ?? code})`;
        console.log(`\n── ${name}: ${verdict} in ${seconds(from)} ──────────────────────────────\n${text.trimEnd()}\n`);
        resolve(code);
      });
    });
  });
  runs.set(name, result);
  return result;
}

// The steps run in process groups of their own: an interrupted run (Ctrl-C, a kill, its terminal closed)
// stops them, and exits as a shell says a signal ended it (128 + its number).
for (const [signal, number] of [
  ['SIGINT', 2],
  ['SIGTERM', 15],
  ['SIGHUP', 1],
]) {
  process.on(signal, () => {
    interrupted = 128 + number;
    for (const child of children.keys()) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    // The steps' ends (5 s at most), then their control groups go (the next run sweeps any left).
    const ends = [...children.keys()].map((child) => new Promise((resolve) => child.once('close', resolve)));
    void Promise.race([Promise.all(ends), new Promise((resolve) => setTimeout(resolve, 5000))]).then(() => {
      for (const group of groups.values()) if (group) removeGroup(group);
      process.exit(interrupted);
    });
  });
}

// While the suites run, a line now and then says which are still at it.
const pulse = setInterval(() => {
  if (children.size > 0) console.log(`… ${seconds(started)}: ${[...children.values()].join(', ')} still running`);
}, 60_000);

const codes = await Promise.all([...chosen].map(run));
clearInterval(pulse);
console.log(`── npm test in ${seconds(started)}, each step's wall time and CPU seconds:`);
for (const e of ended) {
  const cpu =
    e.cpu !== undefined
      ? `, ${e.cpu.toFixed(1)} CPU s`
      : e.floor !== undefined
        ? `, at least ${e.floor.toFixed(1)} CPU s (by \`times\`: what the step did not wait for is not counted)`
        : '';
  console.log(`   ${e.name.padEnd(10)} ${e.code === 0 ? 'ok' : e.code} ${e.time}${cpu}`);
}
const counted = ended.filter((e) => e.cpu !== undefined);
if (counted.length > 0) {
  const total = counted.reduce((sum, e) => sum + e.cpu, 0);
  const wall = (performance.now() - started) / 1000;
  const cores = availableParallelism();
  const busy = `${((100 * total) / (wall * cores)).toFixed(0)} % busy`;
  const left = ended.filter((e) => e.cpu === undefined && e.code !== 'not run').map((e) => e.name);
  const without = left.length > 0 ? ` (${left.join(', ')} not counted: at least ${busy})` : `: ${busy}`;
  console.log(`   all steps  ${total.toFixed(1)} CPU s in ${wall.toFixed(1)} s on ${cores} cores${without}`);
}
// An interrupted run exits as the signal says, once its steps' groups are gone (the handler above).
if (!interrupted) process.exit(codes.find((code) => code !== 0) ?? 0);
