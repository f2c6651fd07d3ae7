//! Counting at the frontier: the transfer-matrix method, on any exact cover
//! problem (XC, colors, multiplicities), keeping only the live sub-problems.
//!
//! Decide the options in the order of their first primary item: at item `p`,
//! the options whose first primary item is `p` are the ones not yet decided,
//! and a set of them is taken that brings `p`'s count within its bounds
//! (for exact cover: one option when `p` is still uncovered, none when an
//! earlier option covered it). After that, `p` is settled for good, and
//! what is left to do depends only on the *frontier*: how far each later
//! item is covered (a count for a primary item, unused / a color / used for
//! a secondary one). So the states of one step are the distinct frontiers,
//! each with the number of ways to reach it; two ways that reach the same
//! frontier are merged, and a step needs the states of the step before only:
//! memory grows with the widest frontier, never with all the sub-problems
//! met. On a board numbered row by row that is a band of about two rows,
//! the broken-profile method of tiling counts.
//!
//! The primary items are settled in an order given ([`Frontier::with_order`];
//! [`crate::choose_order`] finds one that keeps the frontier narrow), or in
//! the order of their numbers. A state is a key of `kw` words holding a
//! field of bits for each *live* item (touched by an option decided and by
//! one still to decide): a primary item's count, a secondary item's value.
//! A field has its place from the step its item becomes live to the step
//! after which no option left touches it; then it is cleared and its place
//! goes to the next item that becomes live. So a key is as wide as the
//! widest frontier, whatever the numbering of the items, and frontiers that
//! differ only in dead items are the same state. Counts are exact at any
//! size ([`Number`]).
//!
//! This is not one of Knuth's algorithms, and it has no step labels of his.
//! Its steps are the transfer-matrix method's, one per primary item in the
//! order: `Plan::step` takes each state of the step before, `Plan::choose`
//! the sets of the undecided options at that item that bring its count
//! within its bounds (`Plan::take` one option into a key), and
//! `Plan::settle` merges the state reached into the next step's table,
//! where the settled item's field is cleared.
//!
//! The count runs in slices ([`Frontier::run`]): a caller can stop between
//! them, and read how far it got ([`Frontier::progress`]).
//!
//! ```
//! use xc::{CompiledProblem, Frontier};
//! // Cover {0, 1, 2} exactly with {0, 1}, {2}, {0}, {1, 2}: two ways.
//! let p = CompiledProblem::new(3, 0, vec![1; 3], vec![1; 3],
//!     vec![0, 2, 3, 4, 6], vec![0, 1, 2, 0, 1, 2], vec![]).unwrap();
//! let mut f = Frontier::new(&p).unwrap();
//! assert_eq!(f.count().to_u128(), Some(2));
//! ```

use crate::core::number::Number;
use crate::core::problem::{CompiledProblem, ranks};
use crate::core::sliced::{Poll, Slice, Sliced};
use crate::counting::order::{lives, option_steps};

mod binary;
mod table;
use table::{DENSE_BITS, Entry, TRANSITION_MEMS, Table, get, set};

/// Bits of a primary item's field at most (counts up to 65,535).
const MAX_FIELD: u32 = 16;

/// Why a problem cannot be counted at the frontier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrontierError {
    /// An item's count or colors need a field wider than `MAX_FIELD` bits.
    FieldTooWide(usize),
}

impl std::fmt::Display for FrontierError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrontierError::FieldTooWide(i) => write!(
                f,
                "item {i} has bounds or colors too many for a frontier count (at most 2^{MAX_FIELD} - 1)"
            ),
        }
    }
}

/// How far a frontier count has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrontierProgress {
    /// Items settled (of `items`).
    pub item: u64,
    pub items: u64,
    /// States of the step under way (done and made).
    pub states: u64,
    /// The most states held at once so far.
    pub peak_states: u64,
    /// The bytes held now.
    pub bytes: u64,
    /// Transitions tried (a state and a set of options).
    pub work: u64,
    /// Approximate memory accesses, as Knuth counts mems: an entry of an
    /// option put in a key, a word of a key hashed, copied or compared, a
    /// probe of a table, and for a table past the caches the trips to
    /// memory (`FAR_MEMS`). Deterministic, and closer to the time than
    /// `work`: a transition of REDRECT-DLX (long options, tables of a
    /// gigabyte) takes some twenty times one of a board of pentominoes.
    pub mems: u64,
}

/// Each item's field: how many bits, the value of a secondary item used
/// without a color, and each secondary item's colors (numbered from 1 on
/// that item, in the order of the problem's color numbers).
struct Fields {
    width: Vec<u32>,
    exclusive: Vec<u64>,
    local: Vec<Vec<u32>>,
}

fn fields(problem: &CompiledProblem) -> Result<Fields, FrontierError> {
    let n = problem.n_items();
    let n1 = problem.n_primary();
    let mut local: Vec<Vec<u32>> = vec![Vec::new(); n - n1];
    let mut plain = vec![false; n - n1];
    for o in 0..problem.n_options() {
        let colors = problem.option_colors(o);
        for (k, &i) in problem.option(o).iter().enumerate() {
            let i = i as usize;
            if i >= n1 {
                let c = colors.get(k).copied().unwrap_or(0);
                if c == 0 {
                    plain[i - n1] = true;
                } else {
                    local[i - n1].push(c);
                }
            }
        }
    }
    for colors in &mut local {
        colors.sort_unstable();
        colors.dedup();
    }
    let mut width = Vec::with_capacity(n);
    let mut exclusive = vec![0u64; n];
    for i in 0..n {
        let top: u64 = if i < n1 {
            problem.hi()[i] as u64
        } else {
            let k = local[i - n1].len() as u64;
            exclusive[i] = k + 1;
            if plain[i - n1] || k == 0 { k + 1 } else { k }
        };
        let w = (64 - top.leading_zeros()).max(1);
        if w > MAX_FIELD {
            return Err(FrontierError::FieldTooWide(i));
        }
        width.push(w);
    }
    Ok(Fields {
        width,
        exclusive,
        local,
    })
}

/// The bits of each item's field in a frontier count of `problem` (what
/// [`crate::choose_order`] weighs an order by).
pub fn field_widths(problem: &CompiledProblem) -> Result<Vec<u32>, FrontierError> {
    Ok(fields(problem)?.width)
}

/// Places for the fields of the live items: a field keeps its bits from
/// the step its item becomes live to the step after which it is dead, and
/// a freed place is taken again by the next field of its width (the lowest
/// first, so keys stay small and dense tables stay usable).
struct Slots {
    free: Vec<std::collections::BinaryHeap<std::cmp::Reverse<u64>>>,
    top: u64,
}

impl Slots {
    fn take(&mut self, width: u32) -> u64 {
        match self.free[width as usize].pop() {
            Some(std::cmp::Reverse(at)) => at,
            None => {
                self.top += width as u64;
                self.top - width as u64
            }
        }
    }

    fn give(&mut self, at: u64, width: u32) {
        self.free[width as usize].push(std::cmp::Reverse(at));
    }
}

/// What every step reads: the problem laid out for the frontier.
#[derive(Debug)]
struct Plan {
    kw: usize,
    bits: u64,
    /// The primary item settled at each step.
    step_item: Vec<u32>,
    /// Each item's field: where it is in a key (while its item is live)
    /// and how wide.
    slot: Vec<u64>,
    width: Vec<u32>,
    lo: Vec<u64>,
    hi: Vec<u64>,
    /// Value of a secondary item used without a color.
    exclusive: Vec<u64>,
    /// The options decided at step `t`: `group[group_start[t]..group_start[t + 1]]`,
    /// each a run of `entries`.
    group_start: Vec<u32>,
    group: Vec<(u32, u32)>,
    entries: Vec<Entry>,
    /// Secondary items whose last option is decided at step `t`: cleared after it.
    retire_start: Vec<u32>,
    retire: Vec<u32>,
    /// Exact cover without colors or multiplicities, on a dense table: an
    /// option is a mask of the key, and a step is a few word operations per
    /// state ([`Plan::binary_chunk`]). `masks` is per option of `group`;
    /// `keep` per step, the bits that stay after it.
    binary: bool,
    masks: Vec<u64>,
    keep: Vec<u64>,
    /// How a step's states are split among `1 << r` workers: bit `j` of a
    /// state's part is the bit `split[t * r + j]` of its key, a bit of a
    /// field live before step `t` and untouched by it, so that every state
    /// a worker makes has its part too and the workers' tables never share
    /// a key (`u64::MAX`: the step is not split, worker 0 moves it all).
    r: usize,
    split: Vec<u64>,
}

/// One thread's part of a step: the states it makes, room for keys, the
/// transitions it tried, and the dense keys its binary step left to the
/// general one (counts past 128 bits).
#[derive(Debug)]
struct Worker {
    next: Table,
    deferred: Vec<usize>,
    key: Vec<u64>,
    scratch: Vec<u64>,
    settled: Vec<u64>,
    work: u64,
    mems: u64,
}

/// The part that stands for every part (one worker moves all the states).
const ALL: usize = usize::MAX;

/// Places of `cur` a worker takes in one round: keys of a dense table,
/// states of a sparse one.
const DENSE_CHUNK: usize = 1 << 20;
const SPARSE_CHUNK: usize = 1 << 16;
/// States of the first round of a sparse step (see `Frontier::per_state`).
const PRICE_CHUNK: usize = 64;

/// The bits that split each step's states among `1 << r` workers (see
/// `Plan::split`): the lowest bits of the fields of items live since an
/// earlier step (so their values vary among the states) and untouched by
/// the step's options, item and retired items, the longest live first.
#[allow(clippy::too_many_arguments)]
fn split_bits(
    problem: &CompiledProblem,
    order: &[u32],
    life: &[Option<(u32, u32)>],
    starts: &[Vec<usize>],
    group_start: &[u32],
    group: &[(u32, u32)],
    entries: &[Entry],
    retire_start: &[u32],
    retire: &[u32],
    slot: &[u64],
    r: usize,
) -> Vec<u64> {
    /// Live items looked at for a step's split, at most.
    const LOOK: usize = 64;
    let n1 = order.len();
    let mut split = vec![u64::MAX; n1 * r];
    if r == 0 {
        return split;
    }
    let mut touched = vec![u32::MAX; problem.n_items()];
    let mut live: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for t in 0..n1 {
        if t > 0 {
            live.extend(&starts[t - 1]);
        }
        while live
            .front()
            .is_some_and(|&i| life[i].is_none_or(|(_, b)| (b as usize) < t))
        {
            live.pop_front();
        }
        touched[order[t] as usize] = t as u32;
        for &(a, b) in &group[group_start[t] as usize..group_start[t + 1] as usize] {
            for e in &entries[a as usize..b as usize] {
                touched[e.item as usize] = t as u32;
            }
        }
        for &i in &retire[retire_start[t] as usize..retire_start[t + 1] as usize] {
            touched[i as usize] = t as u32;
        }
        let picked: Vec<u64> = live
            .iter()
            .take(LOOK)
            .filter(|&&i| touched[i] != t as u32 && life[i].is_some_and(|(_, b)| b as usize >= t))
            .map(|&i| slot[i])
            .take(r)
            .collect();
        if picked.len() == r {
            split[t * r..(t + 1) * r].copy_from_slice(&picked);
        }
    }
    split
}

/// A frontier count in progress (see the module's text).
#[derive(Debug)]
pub struct Frontier {
    plan: Plan,
    /// The step `t`, the states before it (`cur`: one dense table, or the
    /// sparse tables of the workers of the step before),
    /// the workers making the next ones, and the next place of `cur` to move.
    t: usize,
    cur: Vec<Table>,
    workers: Vec<Worker>,
    at: usize,
    /// The binary part of this step is done (the states past 128 bits are left).
    binary_done: bool,
    result: Option<Number>,
    progress: FrontierProgress,
    /// Transitions a state of a sparse table took in the last round: a
    /// round near the end of a slice takes only as many states as the slice
    /// has room for (a state of REDRECT-DLX tries some 160 sets of options,
    /// and a full round of them ran a slice of 65,536 transitions 165 times
    /// over).
    per_state: u64,
}

impl Frontier {
    /// A frontier count of `problem`, its primary items settled in the
    /// order of their numbers, on one thread.
    pub fn new(problem: &CompiledProblem) -> Result<Frontier, FrontierError> {
        let order: Vec<u32> = (0..problem.n_primary() as u32).collect();
        Frontier::with_order(problem, &order, 1, u64::MAX)
    }

    /// The bytes dense tables may take in a run limited to `memory` bytes:
    /// half, the rest for the sparse tables (checked as they grow).
    pub fn dense_limit(memory: u64) -> u64 {
        memory / 2
    }

    /// A frontier count of `problem`, its primary items settled in `order`
    /// (a permutation of them: [`crate::choose_order`] finds a good one),
    /// with dense tables only if they take at most `dense_limit` bytes (two
    /// tables of 2^bits counts), else sparse ones, whose steps are split
    /// among `threads` threads (the same count for any number). Panics if
    /// `order` is not a permutation of the primary items.
    pub fn with_order(
        problem: &CompiledProblem,
        order: &[u32],
        threads: usize,
        dense_limit: u64,
    ) -> Result<Frontier, FrontierError> {
        let n = problem.n_items();
        let n1 = problem.n_primary();
        let threads = threads.max(1);
        let rank = ranks(order, n1);
        let Fields {
            width,
            exclusive,
            local,
        } = fields(problem)?;
        let step = option_steps(problem, &rank);
        let life = lives(problem, &rank, &step);
        // The fields' places, step by step: the items that become live at
        // a step get theirs before it, the items dead after it give theirs
        // back.
        let (mut starts, mut ends) = (vec![Vec::new(); n1], vec![Vec::new(); n1]);
        for (i, l) in life.iter().enumerate() {
            if let Some((a, b)) = *l {
                starts[a as usize].push(i);
                ends[b as usize].push(i);
            }
        }
        let mut slots = Slots {
            free: vec![std::collections::BinaryHeap::new(); MAX_FIELD as usize + 1],
            top: 0,
        };
        let mut slot = vec![0u64; n];
        let mut bits = 1u64;
        for t in 0..n1 {
            for &i in &starts[t] {
                slot[i] = slots.take(width[i]);
            }
            bits = bits.max(slots.top);
            for &i in &ends[t] {
                slots.give(slot[i], width[i]);
            }
        }
        // Options by their step.
        let mut count = vec![0u32; n1 + 1];
        for &t in &step {
            count[t as usize + 1] += 1;
        }
        for t in 0..n1 {
            count[t + 1] += count[t];
        }
        let group_start = count.clone();
        let mut fill = count;
        let mut group = vec![(0, 0); problem.n_options()];
        let mut entries = Vec::with_capacity(problem.n_entries());
        for (o, &t) in step.iter().enumerate() {
            let start = entries.len() as u32;
            let colors = problem.option_colors(o);
            for (k, &i) in problem.option(o).iter().enumerate() {
                let value = if (i as usize) < n1 {
                    1
                } else {
                    let s = i as usize - n1;
                    match colors.get(k).copied().unwrap_or(0) {
                        0 => exclusive[i as usize],
                        c => local[s].binary_search(&c).map_or(0, |k| k as u64 + 1),
                    }
                };
                entries.push(Entry { item: i, value });
            }
            group[fill[t as usize] as usize] = (start, entries.len() as u32);
            fill[t as usize] += 1;
        }
        // Secondary items retire after their last step; a primary item's
        // field is cleared by its own step.
        let mut retire_start = vec![0u32; n1 + 1];
        let mut retire = Vec::new();
        for t in 0..n1 {
            retire.extend(ends[t].iter().filter(|&&i| i >= n1).map(|&i| i as u32));
            retire_start[t + 1] = retire.len() as u32;
        }
        let kw = bits.div_ceil(64) as usize;
        // Two dense tables: the states before a step and after it.
        let dense_size = 2 * ((16u64 << bits.min(40)) + (1u64 << bits.min(40)) / 8);
        let dense_bits = (bits <= DENSE_BITS && dense_size <= dense_limit).then_some(bits);
        let binary = dense_bits.is_some()
            && width.iter().all(|&w| w == 1)
            && problem.lo().iter().all(|&l| l == 1)
            && local.iter().all(|c| c.is_empty());
        let (mut masks, mut keep) = (Vec::new(), Vec::new());
        if binary {
            for t in 0..n1 {
                for &(a, b) in &group[group_start[t] as usize..group_start[t + 1] as usize] {
                    let m = entries[a as usize..b as usize]
                        .iter()
                        .fold(0u64, |m, e| m | 1 << slot[e.item as usize]);
                    masks.push(m);
                }
                let dead = retire[retire_start[t] as usize..retire_start[t + 1] as usize]
                    .iter()
                    .fold(1u64 << slot[order[t] as usize], |m, &i| {
                        m | 1 << slot[i as usize]
                    });
                keep.push(!dead);
            }
        }
        // Dense tables are read and written at random over tens of
        // megabytes, and on this project's 2-core machine such accesses do
        // not go faster on two threads (benchmarks/RESULTS.md): dense
        // steps split with a table per thread ran 1.0x, with one table
        // shared by key bits 1.0-1.2x. So only sparse tables are split.
        let threads = if dense_bits.is_some() { 1 } else { threads };
        let r = (usize::BITS - 1 - threads.leading_zeros()) as usize;
        let split = split_bits(
            problem,
            order,
            &life,
            &starts,
            &group_start,
            &group,
            &entries,
            &retire_start,
            &retire,
            &slot,
            r,
        );
        let threads = 1 << r;
        let plan = Plan {
            kw,
            bits,
            step_item: order.to_vec(),
            slot,
            width,
            lo: problem.lo().iter().map(|&x| x as u64).collect(),
            hi: problem.hi().iter().map(|&x| x as u64).collect(),
            exclusive,
            group_start,
            group,
            entries,
            retire_start,
            retire,
            binary,
            masks,
            keep,
            r,
            split,
        };
        // A binary step's tables are turned (see `table::Dense`): the
        // states before step t with the field of its item lowest.
        let mut cur = Table::new(kw, dense_bits);
        cur.turn(plan.turn(0));
        cur.add(&vec![0u64; kw], &Number::Small(1));
        let workers = (0..threads)
            .map(|_| {
                let mut next = Table::new(kw, dense_bits);
                next.turn(plan.turn(1));
                Worker {
                    next,
                    deferred: Vec::new(),
                    key: vec![0; kw],
                    scratch: vec![0; kw],
                    settled: vec![0; kw],
                    work: 0,
                    mems: 0,
                }
            })
            .collect();
        Ok(Frontier {
            plan,
            t: 0,
            cur: vec![cur],
            workers,
            at: 0,
            binary_done: false,
            result: None,
            per_state: 1,
            progress: FrontierProgress {
                items: n1 as u64,
                ..FrontierProgress::default()
            },
        })
    }

    /// The bits of a state's key: the widest set of fields live at once.
    /// A step holds at most 2^this states.
    pub fn key_bits(&self) -> u64 {
        self.plan.bits
    }

    /// How far the count has got.
    pub fn progress(&self) -> FrontierProgress {
        let next = self.workers.iter().map(|w| w.next.len()).sum::<usize>();
        let bytes = self.workers.iter().map(|w| w.next.bytes()).sum::<usize>();
        FrontierProgress {
            item: self.t as u64,
            states: (self.cur.iter().map(Table::len).sum::<usize>() + next) as u64,
            bytes: (self.cur.iter().map(Table::bytes).sum::<usize>() + bytes) as u64,
            ..self.progress
        }
    }

    /// Works for about `work` more transitions; the count when done (the
    /// body of [`Sliced::run`]).
    fn advance(&mut self, work: u64) -> Option<Number> {
        if let Some(r) = &self.result {
            return Some(r.clone());
        }
        let stop = self.progress.work.saturating_add(work);
        while self.t < self.plan.step_item.len() {
            // A binary step moves every state on the dense tables; then
            // only the states past 128 bits are left, for the general step.
            let binary = self.plan.binary && !self.binary_done;
            let end = match &self.cur[0] {
                Table::Dense(d) => d.cells.len(),
                Table::Sparse(_) => self.cur.iter().map(Table::len).sum(),
            };
            let dense = matches!(self.cur[0], Table::Dense(_));
            while self.at < end {
                if self.progress.work >= stop {
                    return None;
                }
                if !binary && self.plan.binary {
                    // The states past 128 bits, one by one.
                    self.high_states();
                    self.at = end;
                    break;
                }
                let chunk = if dense {
                    DENSE_CHUNK
                } else {
                    // A step's first round is a few states, to price its own.
                    let most = if self.at == 0 {
                        PRICE_CHUNK
                    } else {
                        SPARSE_CHUNK
                    };
                    let left = stop - self.progress.work;
                    (left / self.per_state + 1).min(most as u64) as usize
                };
                let round_end = end.min(self.at + chunk);
                let before = self.progress.work;
                self.round(self.at, round_end, binary);
                if !dense {
                    let moved = (round_end - self.at) as u64;
                    self.per_state = (self.progress.work - before).div_ceil(moved).max(1);
                }
                self.at = round_end;
            }
            if binary {
                self.binary_done = true;
                self.at = 0;
                continue;
            }
            self.finish_step();
        }
        let mut total = Number::ZERO;
        for table in &self.cur {
            total.add(&table.total(self.plan.kw));
        }
        self.cur.clear();
        self.workers.clear();
        self.result = Some(total.clone());
        Some(total)
    }

    /// Moves the places `from..to` of `cur`, split among the workers.
    fn round(&mut self, from: usize, to: usize, binary: bool) {
        let Frontier {
            plan,
            t,
            cur,
            workers,
            progress,
            ..
        } = self;
        let (plan, cur, t) = (&*plan, &*cur, *t);
        let split = &plan.split[t * plan.r..(t + 1) * plan.r];
        let whole = workers.len() == 1 || split.first().is_none_or(|&b| b == u64::MAX);
        let before: u64 = workers.iter().map(|w| w.work).sum();
        let mems_before: u64 = workers.iter().map(|w| w.mems).sum();
        let part = |w: &mut Worker, k: usize| match (binary, &cur[0], &mut w.next) {
            (true, Table::Dense(c), Table::Dense(next)) => {
                let start = w.work;
                plan.binary_chunk(t, c, next, &mut w.work, &mut w.deferred, from, to);
                // A binary step's transition is a mask, an `or` and a count added.
                w.mems += 2 * (w.work - start);
            }
            _ => plan.general_chunk(t, cur, w, k, from, to),
        };
        if whole {
            part(&mut workers[0], 0);
        } else {
            std::thread::scope(|scope| {
                for (k, w) in workers.iter_mut().enumerate() {
                    let part = &part;
                    scope.spawn(move || part(w, k));
                }
            });
        }
        let after: u64 = workers.iter().map(|w| w.work).sum();
        progress.work += after - before;
        progress.mems += workers.iter().map(|w| w.mems).sum::<u64>() - mems_before;
    }

    /// The general step for the states the binary step left (counts past
    /// 128 bits: rare).
    fn high_states(&mut self) {
        let mut keys: Vec<usize> = Vec::new();
        for w in &mut self.workers {
            keys.append(&mut w.deferred);
        }
        keys.sort_unstable();
        let w = &mut self.workers[0];
        let (before, mems_before) = (w.work, w.mems);
        for k in keys {
            self.plan.general_chunk(self.t, &self.cur, w, ALL, k, k + 1);
        }
        self.progress.work += w.work - before;
        self.progress.mems += w.mems - mems_before;
    }

    /// The end of a step: the workers' states become the states before the
    /// next step (their tables never share a key: see `split`).
    fn finish_step(&mut self) {
        let held = self.progress().states;
        self.progress.peak_states = self.progress.peak_states.max(held);
        for table in &mut self.cur {
            table.clear();
        }
        while self.cur.len() < self.workers.len() {
            let kw = self.plan.kw;
            let dense = matches!(self.workers[0].next, Table::Dense(_));
            self.cur
                .push(Table::new(kw, dense.then_some(self.plan.bits)));
        }
        for (table, w) in self.cur.iter_mut().zip(&mut self.workers) {
            std::mem::swap(table, &mut w.next);
        }
        self.at = 0;
        self.binary_done = false;
        self.t += 1;
        let turn = self.plan.turn(self.t + 1);
        for w in &mut self.workers {
            w.next.turn(turn);
        }
    }

    /// Runs to the end: the count.
    pub fn count(&mut self) -> Number {
        loop {
            if let Some(r) = self.advance(u64::MAX) {
                return r;
            }
        }
    }
}

/// The first state at or after place `at` of the tables `cur` (a dense
/// table alone, or sparse ones one after another, which never share a
/// key: see `Plan::split`): its place, its key into `key`, its count.
fn entry_in(cur: &[Table], at: usize, key: &mut [u64]) -> Option<(usize, Number)> {
    let mut base = 0;
    for c in cur {
        if at < base + c.len() || matches!(c, Table::Dense(_)) {
            return c.entry(at - base, key).map(|(k, n)| (k + base, n));
        }
        base += c.len();
    }
    None
}

impl Plan {
    /// The general step of the places `from..to` of `cur`.
    fn general_chunk(
        &self,
        t: usize,
        cur: &[Table],
        w: &mut Worker,
        part: usize,
        from: usize,
        to: usize,
    ) {
        let mut key = std::mem::take(&mut w.key);
        let mut at = from;
        while at < to {
            let Some((place, count)) = entry_in(cur, at, &mut key) else {
                break;
            };
            if place >= to {
                break;
            }
            if part == ALL || self.part_of(t, &key) == part {
                w.mems += key.len() as u64 + 1;
                self.step(t, w, &mut key, &count);
            }
            at = place + 1;
        }
        w.key = key;
        // The states that wait for their lines go in before anything reads
        // the table (the round's end: progress, the step's end).
        w.mems += w.next.settle();
    }

    /// Which worker moves the state `key` at step `t` (see `split`).
    #[inline(always)]
    fn part_of(&self, t: usize, key: &[u64]) -> usize {
        let bits = &self.split[t * self.r..(t + 1) * self.r];
        if bits.first() == Some(&u64::MAX) {
            return 0;
        }
        bits.iter().enumerate().fold(0, |part, (j, &b)| {
            part | (((key[(b / 64) as usize] >> (b % 64)) & 1) as usize) << j
        })
    }

    /// Moves one state across step `t`: every set of the options decided
    /// there that fits the state and brings its item within its bounds.
    fn step(&self, t: usize, w: &mut Worker, key: &mut [u64], count: &Number) {
        let p = self.step_item[t] as usize;
        let have = get(key, self.slot[p], self.width[p]);
        let need = self.lo[p].saturating_sub(have);
        let room = self.hi[p] - have;
        let (from, to) = (
            self.group_start[t] as usize,
            self.group_start[t + 1] as usize,
        );
        if room <= 1 {
            // Exact cover's case, without copies: no option (p is covered)
            // or exactly one.
            w.work += 1;
            w.mems += TRANSITION_MEMS;
            if need == 0 {
                self.settle(t, w, key, count);
            }
            if room == 1 {
                let mut scratch = std::mem::take(&mut w.scratch);
                for g in from..to {
                    w.work += 1;
                    w.mems += TRANSITION_MEMS;
                    let (a, b) = self.group[g];
                    scratch.copy_from_slice(key);
                    w.mems += key.len() as u64;
                    if self.take(&mut scratch, a as usize, b as usize, &mut w.mems) {
                        self.settle(t, w, &scratch, count);
                    }
                }
                w.scratch = scratch;
            }
            return;
        }
        self.choose(t, w, key, count, (from, to), need, room);
    }

    /// Takes options `from..to` of the group or not, `need` to `room` of
    /// them more (depth first, `key` as it was on return).
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &self,
        t: usize,
        w: &mut Worker,
        key: &mut [u64],
        count: &Number,
        (from, to): (usize, usize),
        need: u64,
        room: u64,
    ) {
        w.work += 1;
        w.mems += TRANSITION_MEMS;
        if need == 0 {
            self.settle(t, w, key, count);
        }
        if room == 0 {
            return;
        }
        w.mems += 2 * key.len() as u64;
        // The key as it came, on the stack where it fits: no allocation
        // for each set of options tried.
        let mut buf = [0u64; 8];
        let heap: Vec<u64>;
        let saved: &[u64] = if key.len() <= buf.len() {
            buf[..key.len()].copy_from_slice(key);
            &buf[..key.len()]
        } else {
            heap = key.to_vec();
            &heap
        };
        for g in from..to {
            // Not enough options left to meet the need.
            if ((to - g) as u64) < need {
                return;
            }
            let (a, b) = self.group[g];
            if self.take(key, a as usize, b as usize, &mut w.mems) {
                self.choose(
                    t,
                    w,
                    key,
                    count,
                    (g + 1, to),
                    need.saturating_sub(1),
                    room - 1,
                );
            }
            key.copy_from_slice(saved);
            w.mems += key.len() as u64;
        }
    }

    /// Puts the option of entries `a..b` into `key`, or false if it does
    /// not fit; a mem for each entry looked at.
    fn take(&self, key: &mut [u64], a: usize, b: usize, mems: &mut u64) -> bool {
        let n1 = self.lo.len();
        for e in &self.entries[a..b] {
            *mems += 1;
            let i = e.item as usize;
            let (rel, w) = (self.slot[i], self.width[i]);
            let v = get(key, rel, w);
            if i < n1 {
                if v >= self.hi[i] {
                    return false;
                }
                set(key, rel, w, v + 1);
            } else if e.value == self.exclusive[i] {
                if v != 0 {
                    return false;
                }
                set(key, rel, w, e.value);
            } else {
                if v != 0 && v != e.value {
                    return false;
                }
                set(key, rel, w, e.value);
            }
        }
        true
    }

    /// `key` with step `t`'s item settled, and the secondary items it
    /// retires cleared: into the worker's next states.
    fn settle(&self, t: usize, w: &mut Worker, key: &[u64], count: &Number) {
        let p = self.step_item[t] as usize;
        let k = &mut w.settled;
        k.copy_from_slice(key);
        set(k, self.slot[p], self.width[p], 0);
        let retired = self.retire_start[t] as usize..self.retire_start[t + 1] as usize;
        w.mems += (k.len() + 1 + retired.len()) as u64;
        for r in retired {
            let i = self.retire[r] as usize;
            set(k, self.slot[i], self.width[i], 0);
        }
        w.mems += w.next.add(k, count);
    }
}

/// The frontier goes in slices of transitions; its outcome is the count.
impl Sliced for Frontier {
    type Outcome = Number;

    fn run(&mut self, slice: Slice) -> Poll<Number> {
        self.advance(slice.work).map_or(Poll::Pending, Poll::Ready)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::front::Search;
    use std::sync::Arc;

    fn both(p: CompiledProblem) {
        let by_search = Search::new(Arc::new(p.clone()), None).count_all();
        assert_eq!(
            Frontier::new(&p).unwrap().count().to_u128(),
            Some(by_search as u128)
        );
    }

    #[test]
    fn exact_cover() {
        both(
            CompiledProblem::new(
                3,
                0,
                vec![1; 3],
                vec![1; 3],
                vec![0, 2, 3, 4, 6],
                vec![0, 1, 2, 0, 1, 2],
                vec![],
            )
            .unwrap(),
        );
    }

    #[test]
    fn colors_and_multiplicities() {
        // Items 0 (1..2 times), 1; secondary 2 with colors.
        let p = CompiledProblem::new(
            2,
            1,
            vec![1, 1],
            vec![2, 1],
            vec![0, 2, 4, 5, 7],
            vec![0, 2, 1, 2, 0, 0, 1],
            vec![0, 1, 0, 1, 0, 0, 0],
        )
        .unwrap();
        both(p);
    }
}
