// The rules of every task, re-implemented here without the engine's code, to check what the
// pages show: N-Queens, Sudoku, tree routes, the grammar (an Earley recogniser) and graph colouring.

// ---------- independent N-Queens rules (8x8 and 10x10: the side is read from the text) ----------
export const parse = (t) => { if (![64, 100].includes(t.length) || /[^.Q]/.test(t)) throw new Error(`bad board ${t}`); return [...t].map((c) => c === 'Q'); };
export const sideOf = (b) => Math.round(Math.sqrt(b.length));
export function isSolution(b) {
  const N = sideOf(b);
  const q = []; b.forEach((v, i) => v && q.push([Math.floor(i / N), i % N]));
  if (q.length !== N) return false;
  for (let i = 0; i < q.length; i++) for (let j = i + 1; j < q.length; j++) {
    const [a, b2] = [q[i], q[j]];
    if (a[0] === b2[0] || a[1] === b2[1] || Math.abs(a[0] - b2[0]) === Math.abs(a[1] - b2[1])) return false;
  }
  return true;
}
export const keeps = (b, given) => given.length === b.length && given.every((g, i) => !g || b[i]);
export function countCompletions(given) {
  const N = sideOf(given);
  let count = 0; const cols = new Array(N).fill(-1);
  const fixed = new Array(N).fill(-1); given.forEach((g, i) => g && (fixed[Math.floor(i / N)] = i % N));
  const ok = (r, c) => { for (let p = 0; p < r; p++) if (cols[p] === c || Math.abs(cols[p] - c) === r - p) return false; return true; };
  (function place(r) {
    if (r === N) { count++; return; }
    for (let c = 0; c < N; c++) if ((fixed[r] < 0 || fixed[r] === c) && ok(r, c)) { cols[r] = c; place(r + 1); }
  })(0);
  return count;
}

// ---------- independent Sudoku rules (no engine code) ----------
export const SUDOKU_PEERS = [...Array(81)].map((_, i) => {
  const r = Math.floor(i / 9), c = i % 9, ps = new Set();
  for (let k = 0; k < 9; k++) { ps.add(r * 9 + k); ps.add(k * 9 + c); }
  const br = r - (r % 3), bc = c - (c % 3);
  for (let dr = 0; dr < 3; dr++) for (let dc = 0; dc < 3; dc++) ps.add((br + dr) * 9 + bc + dc);
  ps.delete(i); return [...ps];
});
// Solutions of an 81-char grid ('.' blank), up to `limit`.
export function sudokuSolutions(text, limit = 2) {
  const g = [...text].map((ch) => (ch === '.' ? 0 : Number(ch)));
  const out = [];
  (function go() {
    let best = -1, bestOpts = null;
    for (let i = 0; i < 81; i++) if (!g[i]) {
      const used = new Set(SUDOKU_PEERS[i].map((p) => g[p]));
      const opts = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => !used.has(d));
      if (!opts.length) return;
      if (best < 0 || opts.length < bestOpts.length) { best = i; bestOpts = opts; }
    }
    if (best < 0) { out.push(g.join('')); return; }
    for (const d of bestOpts) { g[best] = d; go(); g[best] = 0; if (out.length >= limit) return; }
  })();
  return out;
}

// ---------- independent tree rules (no engine code) ----------
// The appendix-A line: edges parent-child, then [ROOT]r[TARGET]t[ROUTE]; the route is the chain
// of parents from the target up to the root, reversed.
export function treeRoute(line) {
  const m = /^(.*)\[ROOT\]\s*([A-Z])\s*\[TARGET\]\s*([A-Z])\s*\[ROUTE\]\s*$/.exec(line.trim());
  if (!m) throw new Error(`not a tree line: ${line}`);
  const parent = new Map();
  for (const pair of m[1].split(',')) { const l = pair.replace(/\s/g, ''); parent.set(l[1], l[0]); }
  const route = [m[3]];
  while (route[0] !== m[2]) { const p = parent.get(route[0]); if (!p) throw new Error(`no path in ${line}`); route.unshift(p); }
  return route.join('');
}

// ---------- independent grammar rules (no engine code): an Earley recogniser ----------
// Rules as the page lists them, `A -> B C D`; terminals are the symbols with no rule. A
// sequence begins a sentence of the grammar iff Earley's chart is not empty after reading it.
export function parseRules(text) {
  const rules = [];
  for (const line of text.split('\n').map(l => l.trim()).filter(Boolean)) {
    const [lhs, rhs] = line.split('->').map(x => x.trim());
    rules.push([lhs, rhs.split(/\s+/)]);
  }
  return rules;
}
export function beginsSentence(rules, seq) {
  const byLhs = new Map();
  for (const [l, r] of rules) { if (!byLhs.has(l)) byLhs.set(l, []); byLhs.get(l).push(r); }
  const sets = [];
  const fresh = () => ({ items: [], seen: new Set() });
  const add = (set, it) => { const k = `${it.l}|${it.rhs.join(' ')}|${it.dot}|${it.start}`; if (!set.seen.has(k)) { set.seen.add(k); set.items.push(it); } };
  sets.push(fresh());
  for (const r of byLhs.get('N0_0') || []) add(sets[0], { l: 'N0_0', rhs: r, dot: 0, start: 0 });
  for (let k = 0; ; k++) {
    const set = sets[k];
    for (let i = 0; i < set.items.length; i++) {
      const it = set.items[i];
      if (it.dot < it.rhs.length) {
        for (const r of byLhs.get(it.rhs[it.dot]) || []) add(set, { l: it.rhs[it.dot], rhs: r, dot: 0, start: k });
      } else {
        for (const p of sets[it.start].items) if (p.dot < p.rhs.length && p.rhs[p.dot] === it.l) add(set, { ...p, dot: p.dot + 1 });
      }
    }
    if (k === seq.length) return true;
    const next = fresh();
    for (const it of set.items) if (it.dot < it.rhs.length && it.rhs[it.dot] === seq[k]) add(next, { ...it, dot: it.dot + 1 });
    if (next.items.length === 0) return false;
    sets.push(next);
  }
}

// ---------- independent graph-colouring rules (no engine code; 8 or 10 vertices, read from the text) ----------
export const graphSize = (t) => { const n = (1 + Math.sqrt(1 + 8 * t.length)) / 2; if (![8, 10].includes(n)) throw new Error(`bad graph ${t}`); return n; };
export const graphEdges = (t) => { const GV = graphSize(t); const e = []; let k = 0; for (let i = 0; i < GV; i++) for (let j = i + 1; j < GV; j++) if (t[k++] === '1') e.push([i, j]); return e; };
export const properColouring = (t, c) => c.length === graphSize(t) && /^[012]+$/.test(c) && graphEdges(t).every(([i, j]) => c[i] !== c[j]);
export const canonical = (c) => { const m = {}; let next = 0; return [...c].map((x) => (x in m ? m[x] : (m[x] = String(next++)))).join(''); };
export function countColourings(t) {
  const GV = graphSize(t); const e = graphEdges(t); let n = 0; const col = [];
  const go = (v, used) => { if (v === GV) { n++; return; } for (let c = 0; c < Math.min(used + 1, 3); c++) { if (e.every(([i, j]) => !(j === v && col[i] === c))) { col[v] = c; go(v + 1, Math.max(used, c + 1)); } } };
  go(0, 0); return n;
}
