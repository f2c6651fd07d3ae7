//! Canonical solutions under a group of symmetries of the options.
//!
//! When a problem has symmetries (maps of options to options that map
//! solutions to solutions), counting its classes means counting each class
//! once. Most of that is best done by restricting the problem (see the
//! polyomino puzzle); what remains can be filtered: a solution is kept when,
//! as a sorted list of option ids, it is no larger than any of its images.

/// Is `solution` (sorted option ids) the smallest of its images under
/// `perms` (each maps option ids to option ids)? `scratch` is working space.
///
/// ```
/// // Swapping options 0 <-> 1 and 2 <-> 3: {0, 3} is smaller than {1, 2}.
/// let swap = vec![vec![1, 0, 3, 2]];
/// let mut scratch = Vec::new();
/// assert!(xc::is_canonical(&[0, 3], &swap, &mut scratch));
/// assert!(!xc::is_canonical(&[1, 2], &swap, &mut scratch));
/// ```
pub fn is_canonical(solution: &[u32], perms: &[Vec<u32>], scratch: &mut Vec<u32>) -> bool {
    for perm in perms {
        scratch.clear();
        scratch.extend(
            solution
                .iter()
                .map(|&o| perm.get(o as usize).copied().unwrap_or(u32::MAX)),
        );
        scratch.sort_unstable();
        if scratch.as_slice() < solution {
            return false;
        }
    }
    true
}
