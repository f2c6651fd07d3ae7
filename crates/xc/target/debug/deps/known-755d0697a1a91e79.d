/work/main/crates/xc/target/debug/deps/known-755d0697a1a91e79.d: tests/known.rs tests/common/mod.rs

/work/main/crates/xc/target/debug/deps/known-755d0697a1a91e79: tests/known.rs tests/common/mod.rs

tests/known.rs:
tests/common/mod.rs:
