//! Counts the solutions of a problem in a plain numeric format, for timing
//! the engine alone: a first line `n_primary n_secondary [lo hi]`, then one option a
//! line as item numbers (primary items first). A line `bounds lo:hi ...` right after the
//! first gives each primary item its own multiplicity instead.
//! Usage: `count FILE [auto|cells|bits|memo|memo-first] [THREADS]`.
use std::sync::Arc;
use std::time::Instant;
use xc::{Branching, CompiledProblem, Engine, MemoCount, Piece, Pool, Search, Shared, split};

fn main() {
    let path = std::env::args().nth(1).expect("usage: count FILE");
    let text = std::fs::read_to_string(&path).expect("cannot read the file");
    let mut lines = text.lines();
    let head: Vec<u32> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (n1, n2) = (head[0], head[1]);
    // An optional `lo hi` after them: every primary item's multiplicity.
    let (lo, hi) = (*head.get(2).unwrap_or(&1), *head.get(3).unwrap_or(&1));
    let (mut los, mut his) = (vec![lo; n1 as usize], vec![hi; n1 as usize]);
    let mut lines = lines.peekable();
    if let Some(line) = lines.peek().and_then(|l| l.strip_prefix("bounds")) {
        for (k, b) in line.split_whitespace().enumerate() {
            let (l, h) = b.split_once(':').expect("bounds are lo:hi");
            (los[k], his[k]) = (l.parse().unwrap(), h.parse().unwrap());
        }
        lines.next();
    }
    let mut start = vec![0u32];
    let mut items = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        items.extend(line.split_whitespace().map(|t| t.parse::<u32>().unwrap()));
        start.push(items.len() as u32);
    }
    let p =
        CompiledProblem::new(n1, n2, los, his, start, items, vec![]).expect("not a valid problem");
    let t = Instant::now();
    let branching = match std::env::args().nth(2).as_deref() {
        Some("memo") => Some(Branching::Mrv),
        Some("memo-first") => Some(Branching::First),
        _ => None,
    };
    if let Some(branching) = branching {
        let mut m = MemoCount::new(&p, branching, 4 << 30).expect("not for the memo");
        let n = m.count();
        let st = m.stats();
        println!(
            "memo {branching:?}: {n:?} solutions, {} nodes, {} hits saving {} nodes, {} entries, {} bytes, {:.3} s",
            st.nodes,
            st.hits,
            st.saved,
            st.entries,
            st.bytes,
            t.elapsed().as_secs_f64()
        );
        return;
    }
    let engine = match std::env::args().nth(2).as_deref() {
        Some("cells") => Engine::Cells,
        Some("bits") => Engine::Bits,
        _ => Engine::Auto,
    };
    let threads: usize = std::env::args()
        .nth(3)
        .map_or(0, |t| t.parse().expect("THREADS is a number"));
    let p = Arc::new(p);
    if threads > 0 {
        let pieces = split(&p, &[vec![]], 50 * threads, 16, 1, engine)
            .into_iter()
            .map(|e| e.moves)
            .collect();
        let report =
            Pool::new(p, threads, engine).count(Piece::equal(pieces, 1.0), &Shared::default());
        println!(
            "{threads} threads: {} solutions, {} nodes, {:.3} s",
            report.solutions,
            report.nodes,
            t.elapsed().as_secs_f64()
        );
        return;
    }
    let mut s = Search::with_engine(p, None, engine);
    let n = s.count_all();
    let st = s.stats();
    println!(
        "{:?}: {n} solutions, {} nodes, {} updates, {} mems, {:.3} s",
        s.engine(),
        st.nodes,
        st.updates,
        st.mems,
        t.elapsed().as_secs_f64()
    );
}
