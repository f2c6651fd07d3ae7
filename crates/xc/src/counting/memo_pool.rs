//! A memo count on several threads, split by sub-problem.
//!
//! The top of the search tree is expanded breadth first (Algorithm X, the
//! item with the fewest options at each node) until there are enough
//! sub-problems for every thread to take several; sub-problems met on more
//! than one path are merged, with the number of paths that lead to them. Each
//! thread then counts sub-problems one after another, all of them with one
//! memo in shards that every thread reads and writes (an entry is a
//! sub-problem's count, whatever search met it: a sub-problem counted by one
//! thread is found by the others). The count is the number of solutions met during
//! the expansion plus, for each sub-problem, its count times its paths: the
//! same exact count on any number of threads.
//!
//! Like [`Memo`], the pool runs in slices ([`MemoPool::run`]): each slice
//! runs every thread for its share of the nodes and joins them, so that a
//! caller can stop between slices.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::core::bits::{Count, apply_each};
use crate::core::number::Number;
use crate::core::problem::CompiledProblem;
use crate::core::sliced::{Poll, Slice, Sliced};
use crate::counting::memo::{Branching, Memo, MemoError, MemoStats, Shards, fewest, touch};

/// Sub-problems per thread the expansion aims at.
const TASKS_PER_THREAD: usize = 16;
/// Levels the expansion goes down at most.
const MAX_EXPANSION: usize = 12;

/// A sub-problem to count: its state and the paths that lead to it.
struct Task {
    live: Vec<u64>,
    counts: Vec<Count>,
    untouched: Vec<u64>,
    paths: Number,
}

/// A thread's memo, the task it is on, and what it has counted.
struct Worker {
    memo: Memo<Number>,
    task: Option<usize>,
    counted: Number,
}

/// A memo count split among threads by sub-problem (see the module text).
pub struct MemoPool {
    tasks: Vec<Task>,
    next: AtomicUsize,
    workers: Vec<Worker>,
    /// Solutions found while the tree was expanded.
    base: Number,
    result: Option<Number>,
}

impl MemoPool {
    /// A memo count of `problem` on `threads` threads, their memos holding
    /// about `budget` bytes together. One thread counts the whole problem
    /// as [`Memo`] does.
    pub fn new(
        problem: &CompiledProblem,
        branching: Branching,
        budget: usize,
        threads: usize,
    ) -> Result<MemoPool, MemoError> {
        let threads = threads.max(1);
        let mut first: Memo<Number> = Memo::new(problem, branching, budget)?;
        let bits = Arc::clone(first.bits());
        let (live, counts, untouched) = first.root_state();
        let root = Task {
            live,
            counts,
            untouched,
            paths: Number::Small(1),
        };
        let (tasks, base) = if threads == 1 {
            (vec![root], Number::ZERO)
        } else {
            expand(&first, root, threads * TASKS_PER_THREAD)
        };
        // On threads, one memo in shards that every thread reads and writes.
        let shards =
            (threads > 1).then(|| Arc::new(Shards::new(first.key_words(), budget, 16 * threads)));
        if let Some(shards) = &shards {
            first.share(Arc::clone(shards));
        }
        let mut workers = vec![Worker {
            memo: first,
            task: None,
            counted: Number::ZERO,
        }];
        while workers.len() < threads {
            let mut memo = Memo::with_bits(problem, Arc::clone(&bits), branching, 0);
            if let Some(shards) = &shards {
                memo.share(Arc::clone(shards));
            }
            workers.push(Worker {
                memo,
                task: None,
                counted: Number::ZERO,
            });
        }
        Ok(MemoPool {
            tasks,
            next: AtomicUsize::new(0),
            workers,
            base,
            result: None,
        })
    }

    /// Whether each thread counts parts no option joins apart (see [`Memo::set_split`]).
    pub fn set_split(&mut self, on: bool) {
        for w in &mut self.workers {
            w.memo.set_split(on);
        }
    }

    /// Sub-problems the count was split into.
    pub fn tasks(&self) -> usize {
        self.tasks.len()
    }

    /// Levels split into parts so far, on every thread.
    pub fn splits(&self) -> u64 {
        self.workers.iter().map(|w| w.memo.splits()).sum()
    }

    /// Every thread's memo watches the run's stop flag `halt` ([`Memo::watch`]).
    pub fn watch(&mut self, halt: Option<Arc<AtomicBool>>) {
        for w in &mut self.workers {
            w.memo.watch(halt.clone());
        }
    }

    /// What the threads have done so far, added up (the memo they share counted once).
    pub fn stats(&self) -> MemoStats {
        let mut total = self.workers[0].memo.stats();
        for w in &self.workers[1..] {
            let s = w.memo.stats();
            total.nodes += s.nodes;
            total.hits += s.hits;
            total.saved += s.saved;
        }
        total
    }

    /// Counts for about `nodes` more nodes in all (each thread its share);
    /// the count when done (the body of [`Sliced::run`]).
    fn advance(&mut self, nodes: u64) -> Option<Number> {
        if let Some(r) = &self.result {
            return Some(r.clone());
        }
        let share = (nodes / self.workers.len() as u64).max(1);
        let (tasks, next) = (&self.tasks, &self.next);
        if self.workers.len() == 1 {
            work(&mut self.workers[0], tasks, next, share);
        } else {
            std::thread::scope(|s| {
                for w in self.workers.iter_mut() {
                    s.spawn(move || work(w, tasks, next, share));
                }
            });
        }
        let busy = self.workers.iter().any(|w| w.task.is_some());
        if busy || self.next.load(Ordering::Relaxed) < self.tasks.len() {
            return None;
        }
        let mut total = self.base.clone();
        for w in &self.workers {
            total.add(&w.counted);
        }
        self.result = Some(total.clone());
        Some(total)
    }

    /// Counts to the end.
    pub fn count(&mut self) -> Number {
        loop {
            if let Some(r) = self.advance(u64::MAX) {
                return r;
            }
        }
    }

    /// The solutions counted so far: those of the expansion, of the
    /// sub-problems done, and what the threads' searches have added up.
    pub fn partial(&self) -> Number {
        if let Some(r) = &self.result {
            return r.clone();
        }
        let mut total = self.base.clone();
        for w in &self.workers {
            total.add(&w.counted);
            if let Some(t) = w.task {
                let mut part = w.memo.partial();
                part.mul(&self.tasks[t].paths);
                total.add(&part);
            }
        }
        total
    }
}

/// A thread's share of a slice: sub-problems taken one after another, each
/// counted to its end or until `nodes` are spent.
fn work(w: &mut Worker, tasks: &[Task], next: &AtomicUsize, nodes: u64) {
    let stop = w.memo.nodes_entered().saturating_add(nodes);
    loop {
        let t = match w.task {
            Some(t) => t,
            None => {
                let t = next.fetch_add(1, Ordering::Relaxed);
                if t >= tasks.len() {
                    next.fetch_min(tasks.len(), Ordering::Relaxed);
                    return;
                }
                let task = &tasks[t];
                w.memo.restart(&task.live, &task.counts, &task.untouched);
                w.task = Some(t);
                t
            }
        };
        let left = stop.saturating_sub(w.memo.nodes_entered());
        if left == 0 {
            return;
        }
        match w.memo.advance(left) {
            Some(mut count) => {
                count.mul(&tasks[t].paths);
                w.counted.add(&count);
                w.task = None;
            }
            None => return,
        }
    }
}

/// The sub-problems of `root` some levels down, at least `want` of them if
/// the tree has that many before `MAX_EXPANSION` levels, and the solutions
/// met on the way.
fn expand(memo: &Memo<Number>, root: Task, want: usize) -> (Vec<Task>, Number) {
    let bits = Arc::clone(memo.bits());
    let (start, items) = memo.options();
    let w = bits.w;
    let mut layer = vec![root];
    let mut base = Number::ZERO;
    let (mut updates, mut hint) = (0u64, 0u32);
    for _ in 0..MAX_EXPANSION {
        if layer.is_empty() || layer.len() >= want {
            break;
        }
        // The sub-problems of the next level in the order they are met (so
        // that the split is the same on every run), each once.
        let mut next: Vec<Task> = Vec::new();
        let mut seen: HashMap<Vec<u64>, usize> = HashMap::new();
        for task in layer {
            // The item with the fewest live options, or a solution.
            let Some(i) = fewest(&task.counts) else {
                base.add(&task.paths);
                continue;
            };
            for j in 0..w {
                let mut word = task.live[j] & bits.itemset[i * w + j];
                while word != 0 {
                    let k = j * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    let mut live = task.live.clone();
                    let mut counts = task.counts.clone();
                    if !apply_each::<true>(
                        &bits,
                        &mut live,
                        &mut counts,
                        k,
                        &mut updates,
                        &mut hint,
                    ) {
                        continue;
                    }
                    let mut untouched = task.untouched.clone();
                    if !untouched.is_empty() {
                        touch(&mut untouched, start, items, k);
                        memo.settle_key(&live, &mut untouched);
                    }
                    let key = if untouched.is_empty() {
                        live.clone()
                    } else {
                        untouched.clone()
                    };
                    match seen.get(&key) {
                        Some(&same) => next[same].paths.add(&task.paths),
                        None => {
                            seen.insert(key, next.len());
                            next.push(Task {
                                live,
                                counts,
                                untouched,
                                paths: task.paths.clone(),
                            });
                        }
                    }
                }
            }
        }
        layer = next;
    }
    (layer, base)
}

/// The pool goes in slices of nodes (shared among its threads); its
/// outcome is the count.
impl Sliced for MemoPool {
    type Outcome = Number;

    fn run(&mut self, slice: Slice) -> Poll<Number> {
        self.advance(slice.work).map_or(Poll::Pending, Poll::Ready)
    }
}
