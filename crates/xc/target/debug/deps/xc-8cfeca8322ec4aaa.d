/work/main/crates/xc/target/debug/deps/xc-8cfeca8322ec4aaa.d: src/lib.rs src/cells.rs src/problem.rs src/rng.rs src/search.rs src/stats.rs

/work/main/crates/xc/target/debug/deps/libxc-8cfeca8322ec4aaa.rlib: src/lib.rs src/cells.rs src/problem.rs src/rng.rs src/search.rs src/stats.rs

/work/main/crates/xc/target/debug/deps/libxc-8cfeca8322ec4aaa.rmeta: src/lib.rs src/cells.rs src/problem.rs src/rng.rs src/search.rs src/stats.rs

src/lib.rs:
src/cells.rs:
src/problem.rs:
src/rng.rs:
src/search.rs:
src/stats.rs:
