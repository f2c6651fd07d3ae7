"""Dancing links on node objects: Knuth's Algorithms X, C and M in Python.

This is the program of M. Hiroi's "Dancing Links" article (in Python): each
1 of the matrix is a `Node`, linked up and down to the other options of its
item, and left and right to the other items of its option. Covering an item
unlinks it from the list of items still to cover and unlinks its options
from every other item; uncovering relinks them in reverse order, the links
"dancing" back into place.

Knuth's later programs add what is here as well:

* colors (DLX2, Algorithm C): choosing an option that gives secondary item
  `x` color `c` *purifies* `x`: options giving it another color (or none)
  are hidden, those giving it `c` are marked so they are not purified again;
* multiplicities (DLX3, Algorithm M): a primary item has a *bound* (how many
  more options it may take) and a *slack* (``hi - lo``); the branching item
  tries each option as its next one, *tweaking* it out of the column
  afterwards, and ends with a branch that gives it nothing more, when its
  lower bound allows.

Readable, not fast: use it to learn, and to check the engine.

>>> from covering import Problem
>>> p = Problem.from_dlx("A B 2:3|C | X Y\\nA B X:0 Y:0\\nA C X:1 Y:1\\nC X:0\\nB X:1\\nC Y:1\\n")
>>> list(solutions(p))
[(1, 3, 4)]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from ..model import ProblemData

__all__ = ["solutions", "count"]

#: The color of a node whose item has been purified to that node's color.
PURIFIED = object()


class Node:
    """One 1 of the matrix (or, as `Item`, the head of an item's column)."""

    def __init__(self) -> None:
        self.up: Node = self
        self.down: Node = self
        self.left: Node = self
        self.right: Node = self
        self.item: Item | None = None
        self.option = -1
        self.color: object = None  # None (uncolored), a color, or PURIFIED


class Item(Node):
    """An item's header: its column, and its place among the active items."""

    def __init__(self, name: Hashable, primary: bool, lo: int = 1, hi: int = 1) -> None:
        super().__init__()
        self.name = name
        self.primary = primary
        self.len = 0
        self.bound = hi  # how many more options it may take
        self.slack = hi - lo


class Links:
    """The whole matrix, and the dance steps."""

    def __init__(self, problem: ProblemData) -> None:
        self.root = Item("root", primary=False)
        items: dict[Hashable, Item] = {}
        for name in problem.primary:
            lo, hi = problem.bounds(name)
            items[name] = self.activate(Item(name, True, lo, hi))
        for name in problem.secondary:
            items[name] = Item(name, False)
        for o in range(problem.n_options):
            first: Node | None = None
            for name, color in problem.option(o):
                node = Node()
                node.option, node.item = o, items[name]
                node.color = color
                head = items[name]
                node.up, node.down = head.up, head
                head.up.down = node
                head.up = node
                head.len += 1
                if first is None:
                    first = node
                else:
                    node.left, node.right = first.left, first
                    first.left.right = node
                    first.left = node

    def activate(self, item: Item) -> Item:
        """Appends `item` to the list of active items (those still to cover)."""
        item.left, item.right = self.root.left, self.root
        self.root.left.right = item
        self.root.left = item
        return item

    # Hiding an option: unlink its other nodes from their columns.
    def hide(self, p: Node) -> None:
        q = p.right
        while q is not p:
            if q.color is not PURIFIED:  # a purified column keeps its nodes
                q.up.down, q.down.up = q.down, q.up
                assert q.item is not None
                q.item.len -= 1
            q = q.right

    def unhide(self, p: Node) -> None:
        q = p.left
        while q is not p:
            if q.color is not PURIFIED:
                q.up.down = q.down.up = q
                assert q.item is not None
                q.item.len += 1
            q = q.left

    # Covering an item: out of the active list, and hide all its options.
    def cover(self, i: Item) -> None:
        if i.primary:
            i.left.right, i.right.left = i.right, i.left
        p = i.down
        while p is not i:
            self.hide(p)
            p = p.down

    def uncover(self, i: Item) -> None:
        p = i.up
        while p is not i:
            self.unhide(p)
            p = p.up
        if i.primary:
            i.left.right = i.right.left = i

    # Purifying a secondary item to the color of node p (Algorithm C).
    def purify(self, p: Node) -> None:
        i, color = p.item, p.color
        assert i is not None
        q = i.down
        while q is not i:
            if q.color == color:
                q.color = PURIFIED
            else:
                self.hide(q)
            q = q.down

    def unpurify(self, p: Node) -> None:
        i, color = p.item, p.color
        assert i is not None
        q = i.up
        while q is not i:
            if q.color is PURIFIED:
                q.color = color
            else:
                self.unhide(q)
            q = q.up

    # Choosing an option: the other items of node p's option.
    def commit(self, p: Node) -> None:
        q = p.right
        while q is not p:
            i = q.item
            assert i is not None
            if i.primary:
                i.bound -= 1
                if i.bound == 0:
                    self.cover(i)
            elif q.color is None:
                self.cover(i)
            elif q.color is not PURIFIED:
                self.purify(q)
            q = q.right

    def uncommit(self, p: Node) -> None:
        q = p.left
        while q is not p:
            i = q.item
            assert i is not None
            if i.primary:
                if i.bound == 0:
                    self.uncover(i)
                i.bound += 1
            elif q.color is None:
                self.uncover(i)
            elif q.color is not PURIFIED:
                self.unpurify(q)
            q = q.left

    def choose(self) -> tuple[Item, int]:
        """The active item of least branching degree ``len + s - bound + 1``
        (``s = min(slack, bound)``); ties go to the smaller s, then the
        longer column, then the first (Knuth's DLX3)."""
        best, key = None, None
        i = self.root.right
        while i is not self.root:
            assert isinstance(i, Item)
            s = min(i.slack, i.bound)
            k = (i.len + s - i.bound + 1, s, -i.len)
            if key is None or k < key:
                best, key = i, k
            i = i.right
        assert best is not None and key is not None
        return best, key[0]

    def search(self, chosen: list[int]) -> Iterator[tuple[int, ...]]:
        if self.root.right is self.root:
            yield tuple(sorted(chosen))
            return
        i, degree = self.choose()
        if degree <= 0:
            return  # too few options left for i
        i.bound -= 1
        if i.bound == 0:
            self.cover(i)
        if i.bound == 0 and i.slack == 0:
            # Exactly one more: try each option, as in Algorithm X.
            p = i.down
            while p is not i:
                self.commit(p)
                chosen.append(p.option)
                yield from self.search(chosen)
                chosen.pop()
                self.uncommit(p)
                p = p.down
            self.uncover(i)
        else:
            # Algorithm M: tweak each option out once it has been tried.
            tweaked = []
            while i.len > i.bound - i.slack:
                p = i.down
                if p is i:
                    # Nothing left: i takes no more options (its lower bound is met).
                    if i.bound != 0:
                        i.left.right, i.right.left = i.right, i.left
                    yield from self.search(chosen)
                    if i.bound != 0:
                        i.left.right = i.right.left = i
                    break
                if i.bound != 0:
                    self.hide(p)
                p.up.down, p.down.up = p.down, p.up
                i.len -= 1
                tweaked.append(p)
                self.commit(p)
                chosen.append(p.option)
                yield from self.search(chosen)
                chosen.pop()
                self.uncommit(p)
            for p in reversed(tweaked):
                p.up.down = p.down.up = p
                i.len += 1
                if i.bound != 0:
                    self.unhide(p)
            if i.bound == 0:
                self.uncover(i)
        i.bound += 1


def solutions(problem: ProblemData) -> Iterator[tuple[int, ...]]:
    """The solutions of `problem`, each as a sorted tuple of option ids."""
    yield from Links(problem).search([])


def count(problem: ProblemData) -> int:
    """The number of solutions."""
    return sum(1 for _ in solutions(problem))
