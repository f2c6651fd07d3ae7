/work/main/crates/xc/target/debug/deps/xc-a0591c0ee0c6e70b.d: src/lib.rs src/cells.rs src/problem.rs src/rng.rs src/search.rs src/stats.rs

/work/main/crates/xc/target/debug/deps/xc-a0591c0ee0c6e70b: src/lib.rs src/cells.rs src/problem.rs src/rng.rs src/search.rs src/stats.rs

src/lib.rs:
src/cells.rs:
src/problem.rs:
src/rng.rs:
src/search.rs:
src/stats.rs:
