/work/main/crates/xc/target/debug/deps/random-7a80dbb7ea29a904.d: tests/random.rs tests/common/mod.rs

/work/main/crates/xc/target/debug/deps/random-7a80dbb7ea29a904: tests/random.rs tests/common/mod.rs

tests/random.rs:
tests/common/mod.rs:
