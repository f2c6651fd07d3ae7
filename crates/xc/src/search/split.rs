//! Splitting the search tree into independent pieces, and searching them on
//! several threads.
//!
//! A *piece* is a list of [`Move`]s, options put into or left out of every
//! solution: the subtree below some node of the search, described so that
//! any search (another thread, another process, another machine) can start
//! from it. The children of a node partition its solutions, and so do the
//! pieces of a paused search's frontier, so counts simply add up, whatever
//! the number of workers and however the pieces are cut.
//!
//! [`split`] cuts by *estimated size*, not by depth: Knuth's random probes
//! estimate each piece's number of nodes, and the biggest piece is expanded
//! (forced levels are skipped, they only make a piece longer) until there
//! are enough. [`Pool`] then works on a queue of pieces: each thread takes
//! one and searches it in slices; when another thread is idle, it gives away
//! its unexplored frontier (work stealing), so that no core waits at the end.
//! A total node budget, or a stop flag, makes every thread give back what it
//! has not explored, as pieces.

use std::cmp::Ordering as Cmp;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Condvar, Mutex};

use crate::core::machine::{Engine, Limits, Move, Step};
use crate::core::problem::CompiledProblem;
use crate::core::rng::Rng;
use crate::search::front::Search;

/// A piece and its estimated number of nodes.
#[derive(Clone, Debug)]
pub struct Estimated {
    pub moves: Vec<Move>,
    pub estimate: f64,
}

impl PartialEq for Estimated {
    fn eq(&self, other: &Self) -> bool {
        self.estimate == other.estimate
    }
}
impl Eq for Estimated {}
impl PartialOrd for Estimated {
    fn partial_cmp(&self, other: &Self) -> Option<Cmp> {
        Some(self.cmp(other))
    }
}
impl Ord for Estimated {
    fn cmp(&self, other: &Self) -> Cmp {
        self.estimate.total_cmp(&other.estimate)
    }
}

/// Cuts the pieces `roots` (`&[vec![]]` for the whole tree) into about
/// `target` pieces, expanding the one with the largest estimate (from
/// `probes` random probes each, seeded by `seed`: the same arguments give
/// the same pieces) until there are enough. Empty pieces are dropped.
/// Returns the pieces, largest first.
///
/// ```
/// use std::sync::Arc;
/// use xc::{split, CompiledProblem, Engine, Search};
/// // All 4 subsets of two independent pairs {0}/{0} and {1}/{1}.
/// let p = Arc::new(CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
///     vec![0, 1, 2, 3, 4], vec![0, 0, 1, 1], vec![]).unwrap());
/// let pieces = split(&p, &[vec![]], 4, 8, 1, Engine::Auto);
/// assert_eq!(pieces.len(), 4);
/// let total: u64 = pieces.iter().map(|x| {
///     let mut s = Search::new(p.clone(), None);
///     assert!(s.apply(&x.moves));
///     s.count_all()
/// }).sum();
/// assert_eq!(total, 4);
/// ```
pub fn split(
    problem: &Arc<CompiledProblem>,
    roots: &[Vec<Move>],
    target: usize,
    probes: u32,
    seed: u64,
    engine: Engine,
) -> Vec<Estimated> {
    split_until(
        problem,
        roots,
        target,
        probes,
        seed,
        engine,
        &AtomicBool::new(false),
    )
}

/// The updates the probes of one [`split_until`] may make together: a few
/// hundred thousand probes of a puzzle, a few of a million options.
pub const SPLIT_UPDATES: u64 = 1 << 24;

/// [`split`], stopping early (with the pieces cut so far, which still cover
/// the roots) once `stop` is set: on big problems each estimate costs a
/// rebuild of the search, and a cut into hundreds of pieces takes seconds.
///
/// What the probes may cost is bounded twice, so that a problem of a
/// million options (a probe: millions of updates, a quarter of a second) is
/// cut in about a second, not hours:
/// - all the probes of one split share [`SPLIT_UPDATES`] updates; once they
///   are spent, a piece is given its parent's estimate shared equally among
///   the parent's children (Knuth's uniform estimate), and a root 1;
/// - a node with more children than `target` is not measured child by child
///   (its children are already enough pieces): each gets an equal share.
pub fn split_until(
    problem: &Arc<CompiledProblem>,
    roots: &[Vec<Move>],
    target: usize,
    probes: u32,
    seed: u64,
    engine: Engine,
    stop: &AtomicBool,
) -> Vec<Estimated> {
    let Some(mut s) = Search::with_engine_until(problem.clone(), None, engine, stop) else {
        // Stopped while the search was laid out: the roots, unmeasured.
        return roots
            .iter()
            .map(|moves| Estimated {
                moves: moves.clone(),
                estimate: 1.0,
            })
            .collect();
    };
    let mut rng = Rng::new(seed);
    let mut heap = BinaryHeap::new();
    let mut done: Vec<Estimated> = Vec::new(); // solutions or single nodes: nothing to expand
    let mut budget = SPLIT_UPDATES;
    // The piece's estimate from its probes, or `share` when they cannot be
    // made (the budget spent, or `stop`); `None` for a piece with no node.
    let mut measure = |s: &mut Search, moves: Vec<Move>, share: f64, rng: &mut Rng| {
        s.reset();
        if !s.apply(&moves) {
            return None;
        }
        let estimate = if budget == 0 || stop.load(Ordering::Relaxed) {
            share
        } else {
            s.estimate_within(probes, rng, stop, &mut budget)
                .unwrap_or(share)
        };
        Some(Estimated { moves, estimate })
    };
    for root in roots {
        if stop.load(Ordering::Relaxed) {
            // Unmeasured roots go on as they are (every root stays a piece).
            heap.push(Estimated {
                moves: root.clone(),
                estimate: 1.0,
            });
            continue;
        }
        if let Some(e) = measure(&mut s, root.clone(), 1.0, &mut rng) {
            heap.push(e);
        }
    }
    while heap.len() + done.len() < target.max(1) && !stop.load(Ordering::Relaxed) {
        let Some(biggest) = heap.pop() else { break };
        let mut moves = biggest.moves;
        loop {
            s.reset();
            s.apply(&moves);
            match s.children() {
                None => {
                    done.push(Estimated {
                        moves,
                        estimate: 1.0,
                    });
                    break;
                }
                Some(children) if children.is_empty() => break, // a dead end: no solution
                Some(children) if children.len() == 1 && children[0].is_empty() => {
                    // Algorithm M's null branch alone (an item takes nothing
                    // more): no move describes it, so the piece stays whole.
                    done.push(Estimated {
                        moves,
                        estimate: biggest.estimate,
                    });
                    break;
                }
                Some(mut children) if children.len() == 1 => moves.append(&mut children[0]), // forced
                Some(children) => {
                    let share = (biggest.estimate / children.len() as f64).max(1.0);
                    let wide = children.len() > target;
                    for child in children {
                        let mut piece = moves.clone();
                        piece.extend(child);
                        if wide || stop.load(Ordering::Relaxed) {
                            // Each measure costs a rebuild: a wide node's
                            // children, or the rest on a stop, go on
                            // unmeasured (still pieces).
                            heap.push(Estimated {
                                moves: piece,
                                estimate: share,
                            });
                        } else if let Some(e) = measure(&mut s, piece, share, &mut rng) {
                            heap.push(e);
                        }
                    }
                    break;
                }
            }
        }
    }
    let mut out = heap.into_sorted_vec();
    out.reverse();
    out.extend(done);
    out
}

/// A piece with its weight: its share of the whole tree, for the fraction
/// of the work done. Weights are Knuth's uniform-tree estimates (a branch
/// of a node of degree `d` weighs `1/d` of the node), or any other estimate
/// a caller starts from: the pool only passes them on, so that the weights
/// of the pieces left plus the work done always add up to what it started with.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub moves: Vec<Move>,
    pub weight: f64,
}

impl Piece {
    /// `pieces`, each weighing an equal part of `total`.
    pub fn equal(pieces: Vec<Vec<Move>>, total: f64) -> Vec<Piece> {
        let w = total / pieces.len().max(1) as f64;
        pieces
            .into_iter()
            .map(|moves| Piece { moves, weight: w })
            .collect()
    }
}

/// An `f64` that threads add to (the bits in an [`AtomicU64`]).
#[derive(Debug, Default)]
pub struct AtomicF64(AtomicU64);

impl AtomicF64 {
    pub fn load(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }

    pub fn add(&self, x: f64) {
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                Some((f64::from_bits(b) + x).to_bits())
            });
    }
}

/// Counters shared by the threads of a [`Pool`], for progress reports and
/// for stopping them.
#[derive(Debug, Default)]
pub struct Shared {
    pub nodes: AtomicU64,
    pub solutions: AtomicU64,
    /// Pieces done with (searched to the end, or cut into new pieces by
    /// work stealing or a stop), and pieces handed to the pool (at the
    /// start of each run, and when a thread gives its frontier away): equal
    /// at the end of a run.
    pub pieces_done: AtomicU64,
    pub pieces_made: AtomicU64,
    /// Weight searched to the end: pieces finished, and the explored part
    /// of pieces split or stopped.
    pub explored: AtomicF64,
    /// The explored part of the pieces being searched now.
    pub running: AtomicF64,
    /// Set to make every thread stop at its next slice and give back its work.
    pub stop: AtomicBool,
}

impl Shared {
    /// The weight of the work done so far, finished and running pieces
    /// together (the fraction of the tree, when the pieces started at 1).
    pub fn fraction(&self) -> f64 {
        (self.explored.load() + self.running.load()).max(0.0)
    }
}

/// What a pool's run ended with.
#[derive(Debug, Default)]
pub struct Report {
    /// Solutions counted (or sent).
    pub solutions: u64,
    /// Nodes visited.
    pub nodes: u64,
    /// What was not explored, as pieces with their weights: after the node
    /// budget, all of it (to resume); after a stop from outside, only the
    /// pieces no thread had started (see [`Report::complete`]).
    pub leftover: Vec<Piece>,
    /// Did the run go to the end? False after the node budget or a stop.
    pub complete: bool,
}

/// Nodes a thread searches between two looks at the queue and the flags.
const SLICE: u64 = 1 << 12;

struct Queue {
    pieces: Vec<Piece>,
    /// Threads holding a piece.
    busy: usize,
}

/// Searches a set of pieces on several threads.
#[derive(Clone, Debug)]
pub struct Pool {
    problem: Arc<CompiledProblem>,
    threads: usize,
    engine: Engine,
    /// Stop once this many nodes have been visited in all (a task's budget).
    pub node_budget: Option<u64>,
}

impl Pool {
    pub fn new(problem: Arc<CompiledProblem>, threads: usize, engine: Engine) -> Pool {
        Pool {
            problem,
            threads: threads.max(1),
            engine,
            node_budget: None,
        }
    }

    /// Counts the solutions of `pieces`. Stops early (giving back the
    /// unexplored pieces in [`Report::leftover`]) when `shared.stop` is set
    /// or the node budget is spent.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xc::{split, CompiledProblem, Engine, Piece, Pool, Shared};
    /// let p = Arc::new(CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
    ///     vec![0, 1, 2, 3, 4], vec![0, 0, 1, 1], vec![]).unwrap());
    /// let pieces = split(&p, &[vec![]], 3, 8, 1, Engine::Auto).into_iter().map(|e| e.moves).collect();
    /// let shared = Shared::default();
    /// let report = Pool::new(p, 2, Engine::Auto).count(Piece::equal(pieces, 1.0), &shared);
    /// assert_eq!(report.solutions, 4);
    /// assert!((shared.fraction() - 1.0).abs() < 1e-9);
    /// ```
    pub fn count(&self, pieces: Vec<Piece>, shared: &Shared) -> Report {
        self.run(pieces, shared, None)
    }

    /// Sends every solution of `pieces` (sorted option ids) to `out`, in no
    /// particular order; stops when the receiver is gone, as well as on
    /// `shared.stop` or the node budget.
    pub fn solutions(
        &self,
        pieces: Vec<Piece>,
        shared: &Shared,
        out: SyncSender<Vec<u32>>,
    ) -> Report {
        self.run(pieces, shared, Some(out))
    }

    fn run(
        &self,
        pieces: Vec<Piece>,
        shared: &Shared,
        out: Option<SyncSender<Vec<u32>>>,
    ) -> Report {
        shared
            .pieces_made
            .fetch_add(pieces.len() as u64, Ordering::Relaxed);
        let queue = Mutex::new(Queue { pieces, busy: 0 });
        let wake = Condvar::new();
        let hungry = AtomicUsize::new(0);
        let leftover = Mutex::new(Vec::new());
        // Was some piece left part explored, its frontier not kept?
        let unfinished = AtomicBool::new(false);
        let base_nodes = shared.nodes.load(Ordering::Relaxed);
        // One search built, then copied for each thread (the bitset tables
        // are shared). Stopped while it is laid out: every piece goes back.
        let Some(prototype) =
            Search::with_engine_until(self.problem.clone(), None, self.engine, &shared.stop)
        else {
            return Report {
                solutions: 0,
                nodes: 0,
                leftover: queue.into_inner().expect("queue lock").pieces,
                complete: false,
            };
        };
        let worker = |out: Option<SyncSender<Vec<u32>>>| {
            let mut s = prototype.clone();
            let mut solution = Vec::new();
            loop {
                // Take a piece, or wait for one, or finish when none will come.
                let piece = {
                    let mut q = queue.lock().expect("queue lock");
                    loop {
                        // Stopped: the pieces left stay in the queue, given
                        // back unexplored. (Taking each to find the flag
                        // raised costs a reset of the cells per piece: on a
                        // million options, 26 s for the pieces of a split.)
                        if shared.stop.load(Ordering::Relaxed) {
                            break None;
                        }
                        if let Some(p) = q.pieces.pop() {
                            q.busy += 1;
                            break Some(p);
                        }
                        if q.busy == 0 {
                            break None;
                        }
                        hungry.fetch_add(1, Ordering::Relaxed);
                        q = wake.wait(q).expect("queue lock");
                        hungry.fetch_sub(1, Ordering::Relaxed);
                    }
                };
                let Some(piece) = piece else {
                    wake.notify_all();
                    return;
                };
                let mut give_back: Vec<Piece> = Vec::new();
                let mut finished = true;
                // The explored part of this piece, as last shown in `shared.running`.
                let mut shown = 0.0;
                s.reset();
                if s.apply(&piece.moves) {
                    loop {
                        let over = self.node_budget.is_some_and(|b| {
                            shared.nodes.load(Ordering::Relaxed) - base_nodes >= b
                        });
                        if shared.stop.load(Ordering::Relaxed) || over {
                            shared.stop.store(true, Ordering::Relaxed);
                            // A count with a node budget keeps what it did
                            // not explore, to resume (whichever thread's
                            // stop this is). Without one, a stop comes from
                            // outside (Ctrl-C, cancel), is never resumed, and
                            // must be quick: the frontier of a search
                            // thousands of levels deep, each piece a copy of
                            // the path, takes seconds and gigabytes. (A
                            // stream may also stop right after a solution,
                            // where no frontier exists.)
                            if out.is_none() && self.node_budget.is_some() {
                                let rest = with_prefix(&piece, s.frontier_shares());
                                done_part(shared, &piece, &rest);
                                leftover.lock().expect("leftover lock").extend(rest);
                            } else {
                                unfinished.store(true, Ordering::Relaxed);
                            }
                            finished = false;
                            break;
                        }
                        let st = s.stats();
                        let limits = Limits {
                            nodes: st.nodes + SLICE,
                            updates: st.updates + 64 * SLICE,
                        };
                        let step = match &out {
                            None => s.count(limits, u64::MAX),
                            Some(_) => s.run(limits),
                        };
                        let after = s.stats();
                        shared
                            .nodes
                            .fetch_add(after.nodes - st.nodes, Ordering::Relaxed);
                        shared
                            .solutions
                            .fetch_add(after.solutions - st.solutions, Ordering::Relaxed);
                        match step {
                            Step::Exhausted => break,
                            Step::Solution => {
                                s.solution_into(&mut solution);
                                let sent = out
                                    .as_ref()
                                    .is_some_and(|tx| tx.send(solution.clone()).is_ok());
                                if !sent {
                                    shared.stop.store(true, Ordering::Relaxed);
                                }
                            }
                            Step::Paused => {
                                // Work stealing: an idle thread gets this one's frontier.
                                if hungry.load(Ordering::Relaxed) > 0
                                    && queue.lock().expect("queue lock").pieces.is_empty()
                                {
                                    give_back = with_prefix(&piece, s.frontier_shares());
                                    done_part(shared, &piece, &give_back);
                                    finished = false;
                                    break;
                                }
                                let now = piece.weight * s.fraction_explored();
                                shared.running.add(now - shown);
                                shown = now;
                            }
                        }
                    }
                }
                // Finished or cut into pieces of its own, this piece is done with.
                shared.running.add(-shown);
                shared.pieces_done.fetch_add(1, Ordering::Relaxed);
                if finished {
                    shared.explored.add(piece.weight);
                }
                shared
                    .pieces_made
                    .fetch_add(give_back.len() as u64, Ordering::Relaxed);
                let mut q = queue.lock().expect("queue lock");
                q.pieces.extend(give_back);
                q.busy -= 1;
                drop(q);
                wake.notify_all();
            }
        };
        let nodes_before = shared.nodes.load(Ordering::Relaxed);
        let solutions_before = shared.solutions.load(Ordering::Relaxed);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..self.threads)
                .map(|_| {
                    let out = out.clone();
                    scope.spawn(move || worker(out))
                })
                .collect();
            drop(out);
            for h in handles {
                h.join().expect("a search thread panicked");
            }
        });
        let mut left = leftover.into_inner().expect("leftover lock");
        left.extend(queue.into_inner().expect("queue lock").pieces);
        Report {
            solutions: shared.solutions.load(Ordering::Relaxed) - solutions_before,
            nodes: shared.nodes.load(Ordering::Relaxed) - nodes_before,
            complete: left.is_empty() && !unfinished.load(Ordering::Relaxed),
            leftover: left,
        }
    }
}

/// The pieces of a frontier (with their shares of the piece it was taken
/// from) as pieces of the whole problem, with their weights.
fn with_prefix(prefix: &Piece, frontier: Vec<(Vec<Move>, f64)>) -> Vec<Piece> {
    frontier
        .into_iter()
        .map(|(suffix, share)| {
            let mut moves = prefix.moves.clone();
            moves.extend(suffix);
            Piece {
                moves,
                weight: prefix.weight * share,
            }
        })
        .collect()
}

/// Adds to the work done what `piece` weighed beyond the pieces left of it.
fn done_part(shared: &Shared, piece: &Piece, rest: &[Piece]) {
    let left: f64 = rest.iter().map(|p| p.weight).sum();
    shared.explored.add((piece.weight - left).max(0.0));
}
