#!/usr/bin/env node
// The NEON GEMM microkernels keep their tile in registers: in the
// disassembly (aarch64-linux-gnu-objdump) of every column_tile<neon::...>
// instance and every Microkernel<neon::...>::accumulate on packed A (the
// depth loop of a tile with a fused epilogue), no depth loop (an innermost
// loop running fmla and storing nothing to C) loads or stores on the
// stack. That is the packed path of large products; the direct path (A
// read in place at row strides) is not checked here. Tile epilogues and
// outer loops may keep bookkeeping on the stack: they run once per tile,
// while a spill in the depth loop costs every step.
// Timing is impossible under qemu; the spill count is what the instructions
// say. A ctest of the aarch64 preset:
//   node neon_spills.mjs <objdump> <kernels_neon.cc.o>
import { execFileSync } from 'node:child_process';

const [objdump, object] = process.argv.slice(2);
if (!objdump || !object) {
  console.error('usage: neon_spills.mjs <objdump> <object file>');
  process.exit(2);
}
const text = execFileSync(objdump, ['-d', '--no-show-raw-insn', '-C', object],
                          { encoding: 'utf8', maxBuffer: 1 << 28 });

// Functions: name -> [{ address, mnemonic, operands }].
const functions = new Map();
let current = null;
for (const line of text.split('\n')) {
  const header = line.match(/^[0-9a-f]+ <(.*)>:$/);
  if (header) {
    current = [];
    functions.set(header[1], current);
    continue;
  }
  const insn = line.match(/^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$/);
  if (insn && current) current.push({ address: parseInt(insn[1], 16), mnemonic: insn[2], operands: insn[3] });
}

const kernels = [...functions.keys()].filter((name) => /column_tile<tessera::simd::neon::F(32|64)|Microkernel<tessera::simd::neon::F(32|64), \d+, \d+>::accumulate<tessera::core::gemm::PackedA</.test(name));
if (kernels.length === 0) {
  console.error(`neon_spills: no column_tile<neon::...> function in ${object}`);
  process.exit(1);
}
let failed = false;
for (const name of kernels) {
  const insns = functions.get(name);
  const index = new Map(insns.map((insn, i) => [insn.address, i]));
  let hotLoops = 0;
  let spills = 0;
  // Backward branches: [loop start index, branch index].
  const loops = [];
  for (let i = 0; i < insns.length; ++i) {
    const { mnemonic, operands } = insns[i];
    if (!/^(b(\.\w+)?|cbn?z|tbn?z)$/.test(mnemonic)) continue;
    const target = operands.match(/\b([0-9a-f]+) </);
    if (!target) continue;
    const start = index.get(parseInt(target[1], 16));
    if (start !== undefined && start < i) loops.push([start, i]);
  }
  // Innermost: no other loop lies inside.
  const innermost = loops.filter(([s, e]) =>
    !loops.some(([s2, e2]) => (s2 !== s || e2 !== e) && s2 >= s && e2 <= e));
  for (const [start, i] of innermost) {
    const body = insns.slice(start, i + 1);
    const fmla = body.filter((x) => x.mnemonic === 'fmla').length;
    if (fmla === 0) continue;
    // A depth loop stores nothing but (if it spills) to the stack; a loop
    // that stores C is a tile epilogue (alpha/beta fmla), run once per tile.
    if (body.some((x) => /^st/.test(x.mnemonic) && !/\[sp\b/.test(x.operands))) continue;
    ++hotLoops;
    const stack = body.filter((x) => /^(ld|st)/.test(x.mnemonic) && /\[sp\b/.test(x.operands));
    spills += stack.length;
    if (stack.length > 0) {
      console.log(`  loop at 0x${insns[start].address.toString(16)}: ${fmla} fmla, ${stack.length} stack loads/stores`);
    }
  }
  const short = name.replace(/\(.*$/, '');
  console.log(`${short}: ${hotLoops} depth loop(s), ${spills} stack loads/stores inside them`);
  if (hotLoops === 0 || spills > 0) failed = true;
}
console.log(failed ? 'neon_spills: FAILED' : 'neon_spills: ok, no spills in any depth loop');
process.exit(failed ? 1 : 0);
