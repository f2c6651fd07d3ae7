/* The yardstick of the n-queens counter: a plain C bitboard backtrack with
 * the half-board trick, the program the target of the tilings-and-queens
 * issue describes. One thread, recursive, nothing clever, so that the
 * benchmark can time it in the same run as covering's counter.
 *
 *     cc -O3 -o queens queens.c && ./queens 16      # prints 14772512
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned board; /* n low bits set: the columns of the board */

/* Solutions below a partial placement: the columns and both diagonal
 * directions attacked in the next row. */
static unsigned long long below(unsigned cols, unsigned left, unsigned right)
{
    if (cols == board)
        return 1;
    unsigned long long count = 0;
    unsigned free = board & ~(cols | left | right);
    while (free) {
        unsigned bit = free & -free;
        free ^= bit;
        count += below(cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > 31) {
        fprintf(stderr, "usage: queens N (1 <= N <= 31)\n");
        return 2;
    }
    board = (1u << n) - 1;
    unsigned long long count = 0;
    /* First-row queens in the left half stand for their mirror images too. */
    for (int c = 0; c < n / 2; c++) {
        unsigned bit = 1u << c;
        count += 2 * below(bit, bit << 1, bit >> 1);
    }
    if (n % 2 == 1) {
        /* A queen in the middle: the mirror is told apart in the second row. */
        unsigned bit = 1u << (n / 2);
        unsigned free = board & ~(bit | bit << 1 | bit >> 1) & ((1u << (n / 2)) - 1);
        while (free) {
            unsigned b = free & -free;
            free ^= b;
            count += 2 * below(bit | b, ((bit << 1) | b) << 1, ((bit >> 1) | b) >> 1);
        }
        if (n == 1)
            count = 1;
    }
    printf("%llu\n", count);
    return 0;
}
