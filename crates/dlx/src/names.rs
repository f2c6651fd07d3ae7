//! Names to numbers: an open-addressing table of byte strings that live in
//! the text being read (no copy of a name is made), numbered 0, 1, ... in
//! order of insertion. A file of a million options looks up every entry, so
//! the hash is a cheap multiply-and-rotate over 8 bytes at a time rather
//! than the standard library's DoS-resistant one (names are not keys an
//! attacker can aim at a server: the worst a crafted file does is slow its
//! own read).

use crate::text::Span;

pub struct Names {
    /// Per slot, the name's first 8 bytes as a word, its length, and its
    /// number + 1 (0: empty). A name of at most 8 bytes (most are) is
    /// found from its slot alone, with no look at its span or the text:
    /// those two loads, each a likely miss, were most of the time of a
    /// lookup (a million options look up five million entries).
    slots: Vec<Slot>,
    /// The span of each name in the text, by number.
    pub spans: Vec<Span>,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    word: u64,
    len: u32,
    id1: u32,
}

const K: u64 = 0x517c_c1b7_2722_0a95;

fn hash(name: &[u8]) -> u64 {
    let mut h: u64 = name.len() as u64;
    let mut chunks = name.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        h = (h.rotate_left(5) ^ short_word(rest)).wrapping_mul(K);
    }
    // The high bits are the well mixed ones: fold them down.
    h ^ (h >> 29)
}

/// The bytes of `rest` (at most 8) as a little-endian word: a loop of
/// bytes, where copying them into a buffer of 8 called `memcpy` for each
/// name looked up (5% of reading a million options).
#[inline(always)]
fn short_word(rest: &[u8]) -> u64 {
    let mut w = 0u64;
    for (i, &b) in rest.iter().enumerate() {
        w |= (b as u64) << (8 * i);
    }
    w
}

/// The first 8 bytes of `name` (all of it if shorter) as a word.
#[inline(always)]
fn first_word(name: &[u8]) -> u64 {
    short_word(&name[..name.len().min(8)])
}

impl Names {
    pub fn new() -> Self {
        Names {
            slots: vec![Slot::default(); 16],
            spans: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// The number of `name` (found in `text`), if it has one.
    #[inline]
    pub fn get(&self, text: &[u8], name: &[u8]) -> Option<u32> {
        let (word, len) = (first_word(name), name.len() as u32);
        let mask = self.slots.len() - 1;
        let mut k = hash(name) as usize & mask;
        loop {
            let slot = self.slots[k];
            if slot.id1 == 0 {
                return None;
            }
            if slot.word == word && slot.len == len {
                if len <= 8 {
                    return Some(slot.id1 - 1);
                }
                let (a, b) = self.spans[slot.id1 as usize - 1];
                if &text[a..b] == name {
                    return Some(slot.id1 - 1);
                }
            }
            k = (k + 1) & mask;
        }
    }

    /// Numbers the name at `span` of `text` if new: `Ok(number)`; if it was
    /// there already, `Err(its number)`.
    pub fn insert(&mut self, text: &[u8], span: Span) -> Result<u32, u32> {
        let name = &text[span.0..span.1];
        if let Some(id) = self.get(text, name) {
            return Err(id);
        }
        if (self.spans.len() + 1) * 2 > self.slots.len() {
            self.grow(text);
        }
        let id = self.spans.len() as u32;
        self.spans.push(span);
        self.place(name, id + 1);
        Ok(id)
    }

    fn place(&mut self, name: &[u8], id1: u32) {
        let mask = self.slots.len() - 1;
        let mut k = hash(name) as usize & mask;
        while self.slots[k].id1 != 0 {
            k = (k + 1) & mask;
        }
        self.slots[k] = Slot {
            word: first_word(name),
            len: name.len() as u32,
            id1,
        };
    }

    fn grow(&mut self, text: &[u8]) {
        let n = self.slots.len() * 2;
        self.slots = vec![Slot::default(); n];
        for id in 0..self.spans.len() {
            let (a, b) = self.spans[id];
            self.place(&text[a..b], id as u32 + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_names_in_order_and_finds_them_again() {
        let text = b"alpha beta gamma alpha";
        let mut t = Names::new();
        assert_eq!(t.insert(text, (0, 5)), Ok(0));
        assert_eq!(t.insert(text, (6, 10)), Ok(1));
        assert_eq!(t.insert(text, (11, 16)), Ok(2));
        assert_eq!(t.insert(text, (17, 22)), Err(0));
        assert_eq!(t.get(text, b"beta"), Some(1));
        assert_eq!(t.get(text, b"delta"), None);
        let many: Vec<u8> = (0..5000)
            .flat_map(|i| format!("n{i:05} ").into_bytes())
            .collect();
        let mut t = Names::new();
        for i in 0..5000 {
            assert_eq!(t.insert(&many, (i * 7, i * 7 + 6)), Ok(i as u32));
        }
        assert_eq!(t.get(&many, b"n04321"), Some(4321));
        assert_eq!(t.len(), 5000);
    }
}
